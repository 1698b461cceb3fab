// The masks view's fit: the height of blocks as FlowLayout wraps them, and the largest scale that
// fits a height (the masks and their colour bars shrink together until both rows fit the pane).
#include "panels/mask_flow.h"

#include <catch2/catch.hpp>

using attnlab::gui::flow_height;
using attnlab::gui::largest_fitting_scale;

TEST_CASE("blocks in one row take the tallest one's height") {
    CHECK(flow_height({{100.0f, 50.0f}, {100.0f, 80.0f}, {100.0f, 30.0f}}, 400.0f, 20.0f) == 80.0f);
}

TEST_CASE("a block that does not fit beside the others wraps, and the rows' heights add up") {
    // 100 + 20 + 100 + 20 + 100 = 340 > 300: the third block starts a second row.
    CHECK(flow_height({{100.0f, 50.0f}, {100.0f, 80.0f}, {100.0f, 30.0f}}, 300.0f, 20.0f) == 110.0f);
    // No width at all stacks every block, as FlowLayout(0, gap) does.
    CHECK(flow_height({{100.0f, 50.0f}, {100.0f, 80.0f}}, 0.0f, 20.0f) == 130.0f);
    CHECK(flow_height({}, 300.0f, 20.0f) == 0.0f);
}

TEST_CASE("the largest fitting scale is the whole scale when it fits") {
    CHECK(largest_fitting_scale(0.25f, 1.0f, [](float) { return true; }) == std::optional<float>(1.0f));
}

TEST_CASE("the largest fitting scale fits, and a little more would not") {
    const auto fits = [](float s) { return 300.0f * s + 100.0f <= 280.0f; };  // fits up to 0.6
    const float s = largest_fitting_scale(0.25f, 1.0f, fits).value();
    CHECK(fits(s));
    CHECK(s > 0.6f - 0.75f / 128.0f);
}

TEST_CASE("when not even the smallest scale fits there is none, and a scale returned was seen to fit") {
    CHECK_FALSE(largest_fitting_scale(0.25f, 1.0f, [](float) { return false; }));
    // Not monotonic: fits below 0.4 and between 0.7 and 0.8 only. Whatever bisection finds, it fits.
    const auto fits = [](float s) { return s < 0.4f || (s > 0.7f && s < 0.8f); };
    CHECK(fits(largest_fitting_scale(0.25f, 1.0f, fits).value()));
}
