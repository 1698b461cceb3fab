// The generation's measured rate: tokens over the seconds they took, over the last kWindow tokens only.
#include "token_rate.h"

#include <catch2/catch.hpp>

using attnlab::gui::TokenRate;

TEST_CASE("the token rate is the last few tokens over the seconds they took") {
    TokenRate rate;
    CHECK(rate.count() == 0);
    CHECK(rate.tokens_per_second() == 0.0);
    rate.add(0.25);
    CHECK(rate.tokens_per_second() == 4.0);
    rate.add(0.75);
    CHECK(rate.tokens_per_second() == 2.0);  // 2 tokens in 1 s
    for (size_t i = 0; i < TokenRate::kWindow; ++i) rate.add(0.125);
    CHECK(rate.count() == TokenRate::kWindow);  // the slow ones have left the window
    CHECK(rate.tokens_per_second() == 8.0);
    rate.clear();
    CHECK(rate.count() == 0);
    CHECK(rate.tokens_per_second() == 0.0);
}
