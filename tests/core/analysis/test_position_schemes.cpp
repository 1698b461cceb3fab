// The positional-encoding comparison's pictures, each checked by a fact that follows from its formula:
// the sinusoids' similarity depends only on |i − j| and ignores the column layout, RoPE's is 1 at i = j and a
// function of i − j only, a learned table's cosine is 1 on the diagonal, NoPE adds nothing, and ALiBi's row
// minus its diagonal is −slope·distance.
#include "analysis/position_schemes.h"
#include "ops/relative_buckets.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;

TEST_CASE("sinusoid similarity depends only on |i - j| and not on the column layout", "[position_schemes]") {
    const int N = 9, C = 16;
    const SchemePanel p = sinusoid_panel(N, C);
    REQUIRE(p.heads() == 1);
    REQUIRE(p.positions() == N);
    CHECK(p.added_to == SchemeTarget::embeddings);
    for (int i = 0; i < N; ++i) {
        CHECK(p.at(0, i, i) == Approx(1.0f).margin(1e-5));  // |PE_i|² = C/2: sin² + cos² per pair
        for (int j = 0; j < N; ++j) {
            CHECK(p.at(0, i, j) == Approx(p.at(0, std::abs(i - j), 0)).margin(1e-5));
            // by hand: (2/C)·Σ_k cos((i − j)·ω_k), ω_k = 10000^(−2k/C)
            double sum = 0.0;
            for (int k = 0; k < C / 2; ++k) sum += std::cos((i - j) * std::pow(10000.0, -2.0 * k / C));
            CHECK(p.at(0, i, j) == Approx(2.0 * sum / C).margin(1e-5));
        }
    }
    const SchemePanel halves = sinusoid_panel(N, C, SinusoidLayout::halves);
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) CHECK(halves.at(0, i, j) == Approx(p.at(0, i, j)).margin(1e-5));
    CHECK(p.hi == Approx(1.0f).margin(1e-5));
    CHECK(p.lo < p.hi);
}

TEST_CASE("RoPE's picture is 1 at i = j and a function of i - j only", "[position_schemes]") {
    const int N = 7;
    const std::vector<float> theta = rope_inverse_frequencies(RopeConfig{}, 8);  // D = 8: 4 pairs
    const SchemePanel p = rope_panel(N, theta, false);
    CHECK(p.added_to == SchemeTarget::none);
    for (int i = 0; i < N; ++i) {
        CHECK(p.at(0, i, i) == Approx(1.0f));
        for (int j = 0; j < N; ++j) {
            const int d = i - j;  // the same offset from the first row or column
            CHECK(p.at(0, i, j) == Approx(d >= 0 ? p.at(0, d, 0) : p.at(0, 0, -d)).margin(1e-6));
            CHECK(p.at(0, i, j) == Approx(p.at(0, j, i)).margin(1e-6));  // cos is even
        }
    }
    // offset 1 by hand: (cos 1 + cos 0.1 + cos 0.01 + cos 0.001) / 4 for θ = 10000^(−k/4)
    CHECK(p.at(0, 1, 0) == Approx((std::cos(1.0) + std::cos(0.1) + std::cos(0.01) + std::cos(0.001)) / 4).margin(1e-6));
}

TEST_CASE("a learned table's picture is the cosine of its rows; too short a table is refused", "[position_schemes]") {
    Tensor table({4, 2});
    const float rows[4][2] = {{1, 0}, {0, 2}, {3, 3}, {-1, 0}};
    for (int r = 0; r < 4; ++r) table.row(r) << rows[r][0], rows[r][1];
    const auto p = learned_panel(table, 4);
    REQUIRE(p);
    CHECK(p->from_model);
    CHECK(p->at(0, 2, 2) == Approx(1.0f));
    CHECK(p->at(0, 0, 1) == Approx(0.0f).margin(1e-6));
    CHECK(p->at(0, 0, 2) == Approx(std::sqrt(0.5f)));
    CHECK(p->at(0, 0, 3) == Approx(-1.0f));
    CHECK(p->lo == Approx(-1.0f));
    const auto short_table = learned_panel(table, 5);
    REQUIRE_FALSE(short_table);
    CHECK(short_table.error().message.find("4 rows") != std::string::npos);
}

TEST_CASE("NoPE adds nothing; only the causal mask orders the tokens", "[position_schemes]") {
    const SchemePanel p = nope_panel(5);
    CHECK(p.causal);
    CHECK(p.added_to == SchemeTarget::none);
    CHECK(p.values.matrix().cwiseAbs().maxCoeff() == 0.0f);
    CHECK(p.lo < p.hi);
}

TEST_CASE("T5 buckets: each offset up close has its own bucket", "[position_schemes]") {
    const int N = 12;
    // bidirectional, 32 buckets: offsets −7 … 7 (|j − i| below 32/4) each get their own
    const SchemePanel both = t5_bucket_panel(N, true, 32, 128);
    CHECK_FALSE(both.causal);
    CHECK(both.added_to == SchemeTarget::scores);
    std::vector<float> seen;
    for (int d = -7; d <= 7; ++d) seen.push_back(d >= 0 ? both.at(0, 0, d) : both.at(0, -d, 0));
    std::sort(seen.begin(), seen.end());
    CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) CHECK(both.at(0, i, j) == both.at(0, std::max(i - j, 0), std::max(j - i, 0)));
    CHECK(both.at(0, 0, 0) == 0.0f);
    CHECK(both.at(0, 0, 1) == 17.0f);  // a key one after: the upper half's buckets, 32/2 + 1
    CHECK(both.at(0, 1, 0) == 1.0f);   // a key one before: the lower half's
    // looking back, 32 buckets: distances 0 … 15 (below 32/2) are buckets 0 … 15
    const SchemePanel back = t5_bucket_panel(20, false, 32, 128);
    CHECK(back.causal);
    for (int d = 0; d < 16; ++d) CHECK(back.at(0, 19, 19 - d) == static_cast<float>(d));
    CHECK(back.at(0, 19, 0) > 15.0f);  // distance 19: a shared, log-spaced bucket
}

TEST_CASE("T5 bias: each head reads its column of the table at the bucket", "[position_schemes]") {
    Tensor table({8, 2});  // 8 buckets, 2 heads: table[b, h] = 10·h + b
    for (int b = 0; b < 8; ++b) table.row(b) << static_cast<float>(b), static_cast<float>(10 + b);
    const auto p = t5_bias_panel(5, table, true, 8, 16);
    REQUIRE(p);
    REQUIRE(p->heads() == 2);
    const SchemePanel buckets = t5_bucket_panel(5, true, 8, 16);
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) {
            CHECK(p->at(0, i, j) == buckets.at(0, i, j));
            CHECK(p->at(1, i, j) == 10.0f + buckets.at(0, i, j));
        }
    const auto traced = t5_traced_bias_panel(p->values, true);  // what a run's position_bias step holds
    REQUIRE(traced);
    CHECK(traced->values.data == p->values.data);
    CHECK(traced->lo == p->lo);
    CHECK(traced->hi == p->hi);
    CHECK_FALSE(t5_traced_bias_panel(Tensor({2, 5, 4}), true));
    const auto wrong = t5_bias_panel(5, table, true, 32, 128);
    REQUIRE_FALSE(wrong);
    CHECK(wrong.error().message.find("(8, 2)") != std::string::npos);
}

TEST_CASE("ALiBi's row minus its diagonal is -slope times the distance", "[position_schemes]") {
    const SchemePanel p = alibi_panel(6, 8, false);
    REQUIRE(p.heads() == 8);
    CHECK(p.causal);
    CHECK(p.added_to == SchemeTarget::scores);
    REQUIRE(p.per_head.size() == 8);
    CHECK(p.per_head[0] == Approx(0.5f));      // 2^(−8·1/8)
    CHECK(p.per_head[7] == Approx(1.0f / 256));  // 2^(−8·8/8)
    for (int h = 0; h < 8; ++h)
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j <= i; ++j)
                CHECK(p.at(h, i, j) - p.at(h, i, i) == Approx(-std::ldexp(1.0f, -(h + 1)) * (i - j)));
    CHECK(p.lo == Approx(-2.5f));  // the steepest head's farthest key: −0.5·5
    CHECK(p.hi == Approx(0.0f));   // the keys after the query are not in the range
}
