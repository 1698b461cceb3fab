// The line plot's legend sits above the plot, its entries flowing left to right and wrapping at the
// plot's width, so no entry lies over a curve or past the plot's right edge.
#include "panels/line_plot.h"

#include <catch2/catch.hpp>

using attnlab::gui::legend_flow;

TEST_CASE("legend entries that fit share one row, a gap apart") {
    const auto at = legend_flow({100.0f, 80.0f, 60.0f}, 300.0f, 10.0f, 20.0f);
    REQUIRE(at.size() == 3);
    CHECK(at[0].x == 0.0f);
    CHECK(at[1].x == 110.0f);
    CHECK(at[2].x == 200.0f);
    for (const ImVec2& p : at) CHECK(p.y == 0.0f);
}

TEST_CASE("a legend entry that would pass the plot's width starts the next row") {
    const std::vector<float> widths = {150.0f, 120.0f, 90.0f, 200.0f};
    const float width = 280.0f;
    const auto at = legend_flow(widths, width, 12.0f, 20.0f);
    REQUIRE(at.size() == widths.size());
    CHECK(at[1].x == 0.0f);  // 150 + 12 + 120 = 282 > 280
    CHECK(at[1].y == 20.0f);
    CHECK(at[2].x == 132.0f);  // 120 + 12 + 90 fits the second row
    CHECK(at[2].y == 20.0f);
    for (size_t i = 0; i < at.size(); ++i) CHECK(at[i].x + widths[i] <= width);
    CHECK(at.back().y == 40.0f);  // 234 + 200 > 280
}

TEST_CASE("a legend entry wider than the plot gets a row of its own") {
    const auto at = legend_flow({400.0f, 50.0f}, 300.0f, 10.0f, 20.0f);
    CHECK(at[0].x == 0.0f);
    CHECK(at[0].y == 0.0f);
    CHECK(at[1].x == 0.0f);
    CHECK(at[1].y == 20.0f);
}
