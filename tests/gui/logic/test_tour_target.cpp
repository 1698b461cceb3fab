// The on-screen check of a tour chapter's task widget (--check-tour-target): what it passes and
// what it reports, from the rectangle the panels recorded.
#include "panels/tour_target.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

TourTargetProbe drawn_at(ImVec2 min, ImVec2 max) {
    TourTargetProbe p;
    p.wanted = TourTaskKind::toggle_mask_cell;
    p.seen = true;
    p.min = min;
    p.max = max;
    return p;
}

}  // namespace

TEST_CASE("a task widget drawn inside the window passes the on-screen check", "[app][tour]") {
    const TourTargetProbe p = drawn_at(ImVec2(400, 300), ImVec2(690, 590));
    CHECK(tour_target_problem(p, ImVec2(1280, 720), TourTaskKind::toggle_mask_cell).empty());
}

TEST_CASE("a task widget below the fold, clipped or never drawn is reported in one line", "[app][tour]") {
    const ImVec2 screen(1280, 720);
    const std::string below =
        tour_target_problem(drawn_at(ImVec2(400, 610), ImVec2(690, 898)), screen, TourTaskKind::toggle_mask_cell);
    CHECK(below == "not fully on screen: the mask to click at (400,610)-(690,898)");

    TourTargetProbe clipped = drawn_at(ImVec2(400, 300), ImVec2(690, 590));  // inside the window, cut by its pane
    clipped.visible = false;
    CHECK(tour_target_problem(clipped, screen, TourTaskKind::toggle_mask_cell).find("not fully on screen") !=
          std::string::npos);

    TourTargetProbe missing;
    missing.wanted = TourTaskKind::edit_source;
    CHECK(tour_target_problem(missing, screen, TourTaskKind::edit_source) == "not drawn: the source token chips");

    TourTargetProbe cut = drawn_at(ImVec2(400, 300), ImVec2(690, 590));
    cut.task_shown = false;
    CHECK(tour_target_problem(cut, screen, TourTaskKind::toggle_mask_cell) == "the card's task is cut off");
    for (const std::string& m : {below, tour_target_problem(missing, screen, TourTaskKind::edit_source)})
        CHECK(m.find('\n') == std::string::npos);
}

TEST_CASE("scrolling to a task widget puts its section's heading at the top, the line above wholly out of view",
          "[app][tour]") {
    // The view's visible part is y 100..700; the widget is 900 px down, its section's heading 60 px above it.
    TourTargetProbe p = drawn_at(ImVec2(400, 1000), ImVec2(690, 1300));
    p.section_top = 940.0f;
    const float gap = 6.0f, scroll = scroll_y_to_section(p, 50.0f, 100.0f, 700.0f, gap);
    const float moved = scroll - 50.0f;     // content moves up by the change of scroll
    CHECK(940.0f - moved == 100.0f + gap);  // the heading whole, just below the visible top
    CHECK(1300.0f - moved <= 700.0f);       // and the widget below it

    TourTargetProbe no_heading = drawn_at(ImVec2(400, 1000), ImVec2(690, 1300));
    CHECK(1000.0f - (scroll_y_to_section(no_heading, 50.0f, 100.0f, 700.0f, gap) - 50.0f) == 100.0f + gap);
}

TEST_CASE("a section too tall for the view scrolls to its task widget instead", "[app][tour]") {
    TourTargetProbe p = drawn_at(ImVec2(400, 1000), ImVec2(690, 1500));
    p.section_top = 500.0f;  // heading to widget's bottom: 1000 px, the view 600
    const float moved = scroll_y_to_section(p, 0.0f, 100.0f, 700.0f, 6.0f);
    CHECK(1000.0f - moved == 106.0f);  // the widget's top, whole
}
