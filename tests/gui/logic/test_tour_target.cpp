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
