// Why a mask cell is 0 (panels/mask_cell_rule.h), as the masks view's tooltip says it: checked against the masks
// core builds, so a cell the tooltip calls allowed is 1 and a blocked one is 0.
#include "panels/mask_cell_rule.h"

#include "ops/masks.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("a sliding window's blocked keys are named as too far back, not as the future", "[mask_cell_rule]") {
    // Mistral's fixture: W = 3, ten tokens. Query 9 sees keys 7, 8, 9; key 0 is neither future nor padding.
    const int window = 3, n = 10;
    const Tensor band = look_ahead_mask(n, window);  // (T, T)
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            INFO("query " << i << ", key " << j);
            const BlockedBy why = blocked_by({i, j, false, true, window});
            CHECK((why == BlockedBy::nothing) == (band.matrix()(i, j) == 1.0f));
            if (j > i) CHECK(why == BlockedBy::future);
            if (i - j >= window) CHECK(why == BlockedBy::sliding_window);
        }
    CHECK(blocked_by({9, 0, false, true, window}) == BlockedBy::sliding_window);
    CHECK(blocked_by({9, 6, false, true, window}) == BlockedBy::sliding_window);  // exactly W back: blocked
    CHECK(blocked_by({9, 7, false, true, window}) == BlockedBy::nothing);
}

TEST_CASE("without a window: the future and padding block, nothing else", "[mask_cell_rule]") {
    const Tensor tril = look_ahead_mask(6, 0);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            CHECK((blocked_by({i, j, false, true, 0}) == BlockedBy::nothing) == (tril.matrix()(i, j) == 1.0f));
    CHECK(blocked_by({5, 0, true, true, 0}) == BlockedBy::padding);
    CHECK(blocked_by({0, 5, false, false, 3}) == BlockedBy::nothing);  // cross or encoder: keys are not causal
}
