// Head diversity by hand: the share of weight one key takes over every query, and each head's
// distance to the nearest other head of its attention.
#include "analysis/head_diversity.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;

namespace {

// (H, Tq, Tk) from the numbers listed head by head, row by row.
Tensor weights(int64_t H, int64_t Tq, int64_t Tk, std::initializer_list<float> values) {
    Tensor w({H, Tq, Tk});
    REQUIRE(static_cast<int64_t>(values.size()) == w.numel());
    std::copy(values.begin(), values.end(), w.data.data());
    return w;
}

}  // namespace

TEST_CASE("head diversity of hand-made weights: a sink head, a diagonal head and its near copy", "[analysis]") {
    // 3 heads, 2 queries, 2 keys. Head 0 puts everything on key 1 (a sink); head 1 is the diagonal;
    // head 2 is the diagonal blurred by 0.1.
    const Tensor w = weights(3, 2, 2,
                             {0, 1, /**/ 0, 1,  //
                              1, 0, /**/ 0, 1,  //
                              0.9f, 0.1f, /**/ 0.1f, 0.9f});
    const std::vector<HeadDiversity> d = head_diversity(w);
    REQUIRE(d.size() == 3);
    CHECK(d[0].top_key_share == Approx(1.0f));  // key 1 takes all of both rows
    CHECK(d[1].top_key_share == Approx(0.5f));  // each key takes one row of two
    CHECK(d[2].top_key_share == Approx(0.5f));
    // |Δ| cell by cell, averaged over the 4 cells: head 1 vs 2 is 0.1 everywhere; head 0 vs 2 is
    // (0.9 + 0.9 + 0.1 + 0.1) / 4 = 0.5; head 0 vs 1 is (1 + 1 + 0 + 0) / 4 = 0.5.
    CHECK(d[1].nearest_head == 2);
    CHECK(d[1].nearest_difference == Approx(0.1f));
    CHECK(d[2].nearest_head == 1);
    CHECK(d[2].nearest_difference == Approx(0.1f));
    CHECK(d[0].nearest_difference == Approx(0.5f));  // as far from head 1 as from head 2

    const HeadDiversitySummary::Layer layer{AttentionSite{}, d};
    CHECK(layer.min_pair_difference() == Approx(0.1f));
    CHECK(layer.max_top_key_share() == Approx(1.0f));
}

TEST_CASE("head diversity leaves fully masked rows out, and one head has no nearest head", "[analysis]") {
    // 2 heads, 3 queries, 2 keys; row 0 is fully masked in both heads and the heads are identical.
    const Tensor w = weights(2, 3, 2,
                             {0, 0, /**/ 0.5f, 0.5f, /**/ 1, 0,  //
                              0, 0, /**/ 0.5f, 0.5f, /**/ 1, 0});
    const std::vector<HeadDiversity> d = head_diversity(w);
    REQUIRE(d.size() == 2);
    CHECK(d[0].top_key_share == Approx(0.75f));  // key 0: (0.5 + 1) / 2 live rows, not / 3
    CHECK(d[0].nearest_difference == Approx(0.0f));
    CHECK(d[0].nearest_head == 1);

    const Tensor one = weights(1, 1, 2, {0.25f, 0.75f});
    const HeadDiversity only = head_diversity(one).at(0);
    CHECK(only.nearest_head == -1);
    CHECK(std::isnan(only.nearest_difference));
    CHECK(only.top_key_share == Approx(0.75f));
    CHECK(std::isnan(HeadDiversitySummary::Layer{AttentionSite{}, {only}}.min_pair_difference()));
}
