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

TEST_CASE("a mask to click whose cells a room cannot see fails the check, in one line", "[app][tour]") {
    const ImVec2 screen(1024, 768);
    TourTargetProbe specks = drawn_at(ImVec2(400, 300), ImVec2(535, 435));  // the audit's D11: 23 cells in 135 px
    specks.cell_pixels = 135.0f / 23.0f;
    const std::string problem = tour_target_problem(specks, screen, TourTaskKind::toggle_mask_cell);
    CHECK(problem == "too small: the cells of the mask to click are 5.9 px a side, under the 10 px a room can see and "
                     "click");
    TourTargetProbe large = drawn_at(ImVec2(400, 300), ImVec2(735, 635));  // 335 px: 14.6 px a cell
    large.cell_pixels = 335.0f / 23.0f;
    CHECK(tour_target_problem(large, screen, TourTaskKind::toggle_mask_cell).empty());
    TourTargetProbe not_a_grid = drawn_at(ImVec2(400, 300), ImVec2(690, 330));  // a slider: no cells
    CHECK(tour_target_problem(not_a_grid, screen, TourTaskKind::toggle_mask_cell).empty());
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

TEST_CASE("a widget the task says to watch must be on screen with the task's widget", "[app][tour]") {
    const ImVec2 screen(1280, 720);
    TourChapter rope;
    rope.task = TourTaskKind::change_rope_rows;
    rope.watch = {TourWatch::rope_pairs, TourWatch::rope_score};
    TourTargetProbe p = tour_target_probe(rope);
    p.seen = true;
    p.min = ImVec2(500, 150), p.max = ImVec2(900, 200);  // the sliders, on screen
    CHECK(tour_target_problem(p, screen, rope.task) == "not drawn: the pair circles, which the task says to watch");

    p.watched[0].seen = true;
    p.watched[0].min = ImVec2(500, 300), p.watched[0].max = ImVec2(1200, 500);
    p.watched[1].seen = true;
    p.watched[1].min = ImVec2(500, 640), p.watched[1].max = ImVec2(1200, 900);  // the score plot, below the fold
    CHECK(tour_target_problem(p, screen, rope.task) ==
          "not fully on screen with the query and key sliders: the plot of the score against the offset at "
          "(500,640)-(1200,900)");

    p.watched[1].min = ImVec2(500, 510), p.watched[1].max = ImVec2(1200, 700);
    CHECK(tour_target_problem(p, screen, rope.task).empty());
    p.watched[0].visible = false;  // inside the screen, but clipped by its pane
    CHECK(tour_target_problem(p, screen, rope.task).find("not fully on screen with") != std::string::npos);
}

TEST_CASE("a table cell narrower than its text fails the check", "[app][tour]") {
    TourTargetProbe p = drawn_at(ImVec2(400, 300), ImVec2(690, 590));
    p.squeezed_cell = "column 6 (||∂L/∂s||, ÷ √d_k): \"0.142\" is 44 px wide, the column 9";
    CHECK(tour_target_problem(p, ImVec2(1280, 720), TourTaskKind::toggle_mask_cell) ==
          "a table cell is narrower than its text: " + p.squeezed_cell);
}

TEST_CASE("scrolling to a task widget brings the watched widget above it into view too", "[app][tour]") {
    // The padding masks (watched) sit 500 px above the mask to click; the view shows y 100..700.
    TourTargetProbe p = drawn_at(ImVec2(400, 1000), ImVec2(690, 1200));
    p.section_top = 960.0f;
    p.watched.push_back(TourWatchMark{TourWatch::padding_masks, true, ImVec2(400, 700), ImVec2(800, 760), false});
    const float moved = scroll_y_to_section(p, 0.0f, 100.0f, 700.0f, 6.0f);
    CHECK(700.0f - moved == 106.0f);   // the padding masks at the top
    CHECK(1200.0f - moved <= 700.0f);  // and the mask to click below them

    p.watched.back().min.y = 100.0f;  // too far above to show both: the task's widget wins
    CHECK(1000.0f - scroll_y_to_section(p, 0.0f, 100.0f, 700.0f, 6.0f) == 106.0f);
}

TEST_CASE("a watched widget out of sight, its task's widget on the card, scrolls into view", "[app][tour]") {
    TourTargetProbe p;  // the task's widget (the source chips) is on the card, not in the view
    p.wanted = TourTaskKind::edit_source;
    TourWatchMark rows;
    rows.what = TourWatch::ffn_rows;
    rows.seen = true;
    rows.min = ImVec2(650, 480);
    rows.max = ImVec2(980, 780);  // its bottom 80 px below the view's visible part [140, 700]
    rows.visible = false;
    p.watched.push_back(rows);
    CHECK(watched_out_of_sight(p));
    const float gap = 4.0f;
    const float down = scroll_y_to_watched(p, 30.0f, 140.0f, 700.0f, gap) - 30.0f;
    CHECK(780.0f - down == 700.0f - gap);  // its bottom just inside
    CHECK(480.0f - down >= 140.0f);        // and its top still in view
    // Taller than the visible part: its top goes to the top.
    p.watched.front().max.y = 1400.0f;
    CHECK(480.0f - (scroll_y_to_watched(p, 30.0f, 140.0f, 700.0f, gap) - 30.0f) == 140.0f + gap);
    // In sight, or never drawn: nothing to scroll to.
    p.watched.front().visible = true;
    CHECK_FALSE(watched_out_of_sight(p));
    p.watched.front().seen = false;
    CHECK_FALSE(watched_out_of_sight(p));
}
