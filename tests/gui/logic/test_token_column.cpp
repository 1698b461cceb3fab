// The head view's token columns (panels/token_column.h): spread over a height, and the token under a pointer.
#include "panels/token_column.h"

#include <catch2/catch.hpp>

#include <random>

TEST_CASE("a token column fills its height, centred, and finds the token under the pointer", "[token_column]") {
    using attnlab::gui::TokenColumn;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> height(40.0f, 1200.0f), max_step(10.0f, 140.0f);
    std::uniform_int_distribution<int> count(1, 64);
    for (int trial = 0; trial < 1000; ++trial) {
        const float top = 100.0f, h = height(rng), cap = max_step(rng);
        const int n = count(rng);
        const TokenColumn c = TokenColumn::spread(top, h, n, cap);
        INFO("trial " << trial << " height " << h << " n " << n << " cap " << cap);
        CHECK(c.step <= cap + 1e-4f);
        CHECK(c.step * static_cast<float>(n) <= h + 1e-3f);
        if (c.step < cap) CHECK(c.step * static_cast<float>(n) == Approx(h));  // fills the height unless capped
        CHECK(c.y(0) - 0.5f * c.step - top == Approx(top + h - (c.y(n - 1) + 0.5f * c.step)).margin(1e-2));
        for (int i = 0; i < n; ++i) {
            CHECK(c.at(c.y(i)) == i);
            CHECK(c.at(c.y(i) - 0.45f * c.step) == i);
            CHECK(c.at(c.y(i) + 0.45f * c.step) == i);
        }
        CHECK(c.at(c.y(0) - 0.55f * c.step) == -1);
        CHECK(c.at(c.y(n - 1) + 0.55f * c.step) == -1);
    }
}
