// ALiBi's slopes against the paper's rule worked by hand, and the bias they make.
#include "ops/alibi.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

TEST_CASE("ALiBi slopes of a power-of-two head count are 2^(-8/H), 2^(-16/H), ...", "[alibi]") {
    const std::vector<float> eight = alibi_slopes(8);  // the paper's 8 heads: 1/2 … 1/256
    REQUIRE(eight.size() == 8);
    for (int h = 0; h < 8; ++h) CHECK(eight[static_cast<size_t>(h)] == Approx(1.0 / (1 << (h + 1))).epsilon(1e-6));
    const std::vector<float> four = alibi_slopes(4);  // 2^(-2), 2^(-4), 2^(-6), 2^(-8)
    REQUIRE(four.size() == 4);
    CHECK(four[0] == Approx(0.25));
    CHECK(four[1] == Approx(1.0 / 16));
    CHECK(four[2] == Approx(1.0 / 64));
    CHECK(four[3] == Approx(1.0 / 256));
    CHECK(alibi_slopes(1) == std::vector<float>{1.0f / 256});  // 2^(-8)
}

TEST_CASE("ALiBi slopes of other head counts add every other slope of the next power of two", "[alibi]") {
    // 6 heads: the 4 slopes of 4 heads, then slopes 1 and 3 of 8 heads (1/2, 1/8).
    const std::vector<float> six = alibi_slopes(6);
    const double want6[] = {1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2, 1.0 / 8};
    REQUIRE(six.size() == 6);
    for (size_t h = 0; h < 6; ++h) CHECK(six[h] == Approx(want6[h]).epsilon(1e-6));
    // 12 heads: 8 of 8 heads (2^-1 … 2^-8), then 2^(-8k/16) for k = 1, 3, 5, 7.
    const std::vector<float> twelve = alibi_slopes(12);
    REQUIRE(twelve.size() == 12);
    CHECK(twelve[7] == Approx(1.0 / 256));
    CHECK(twelve[8] == Approx(std::pow(2.0, -0.5)).epsilon(1e-6));
    CHECK(twelve[11] == Approx(std::pow(2.0, -3.5)).epsilon(1e-6));
    CHECK(alibi_slopes(3) == std::vector<float>{alibi_slopes(2)[0], alibi_slopes(2)[1], 0.25f});  // 1/16, 1/256, then 1/4 (slope 1 of 4 heads)
}

TEST_CASE("ALiBi bias is minus the slope times the distance back to the key", "[alibi]") {
    const Tensor bias = alibi_bias({0.5f, 0.25f}, 3);  // (H, N, N)
    REQUIRE(bias.shape == Shape{2, 3, 3});
    auto at = [&](int64_t h, int64_t i, int64_t j) { return bias.data[static_cast<size_t>((h * 3 + i) * 3 + j)]; };
    CHECK(at(0, 0, 0) == 0.0f);   // a query's own key: no penalty
    CHECK(at(0, 2, 0) == -1.0f);  // two back at slope 1/2
    CHECK(at(1, 2, 0) == -0.5f);  // the same distance at slope 1/4
    CHECK(at(1, 2, 1) == -0.25f);
    CHECK(at(0, 1, 2) == 0.5f);  // a later key (hidden by the causal mask)
}
