// The saliency table's bar and number share a cell without overlapping: the number sits after the bar's
// whole track, so white text never straddles the orange fill's edge, whatever the share.
#include "panels/loss_controls.h"

#include <catch2/catch.hpp>

using namespace attnlab::gui;

TEST_CASE("a saliency cell's number never lies over its bar", "[loss][saliency]") {
    const float cell = 160.0f, text = 48.0f, gap = 6.0f;
    float last_fill = -1.0f;
    for (const float share : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f}) {
        INFO("share " << share);
        const ValueBarLayout l = value_bar_layout(share, cell, text, gap);
        CHECK(l.fill_width == Approx(share * l.track_width));
        CHECK(l.fill_width >= last_fill);                // a larger share, a longer fill
        CHECK(l.text_x >= l.track_width + gap - 1e-3f);  // after the whole track, not only the fill
        CHECK(l.text_x + text <= cell + 1e-3f);          // and inside the cell
        CHECK(l.track_width > 0.5f * cell);              // the bar keeps most of the cell
        last_fill = l.fill_width;
    }
}
