// Temperature, top-k, top-p and the seeded draw, against hand-computed distributions and, for a
// large vocabulary with many ties, against a brute-force full sort.
#include "sampling.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

using namespace attnlab;

namespace {

// Logits whose softmax at T = 1 is exactly `p` (which sums to 1).
RowVec logits_of(const std::vector<double>& p) {
    RowVec l(static_cast<Eigen::Index>(p.size()));
    for (size_t i = 0; i < p.size(); ++i) l[static_cast<Eigen::Index>(i)] = static_cast<float>(std::log(p[i]));
    return l;
}

// p by id: 0.10, 0.50, 0.15, 0.25, so the ranking (1, 3, 2, 0) is not the id order.
const std::vector<double> kFour = {0.10, 0.50, 0.15, 0.25};

SamplingSet set_of(const RowVec& logits, float temperature, int top_k, float top_p, int n_listed = -1) {
    auto set = sampling_set(logits, {temperature, top_k, top_p}, n_listed);
    REQUIRE(set);
    return *set;
}

std::vector<int> kept_ids(const SamplingSet& s) {
    std::vector<int> ids;
    for (int r = 0; r < s.n_kept; ++r) ids.push_back(s.ranked[static_cast<size_t>(r)].id);
    return ids;
}

}  // namespace

TEST_CASE("with no cut the set is every token, ranked by p, and its renormalised p is p", "[sampling]") {
    const SamplingSet s = set_of(logits_of(kFour), 1.0f, 0, 1.0f);
    CHECK(kept_ids(s) == std::vector<int>{1, 3, 2, 0});
    CHECK(s.n_top_k == 4);
    CHECK(s.mass == Approx(1.0).margin(1e-9));
    for (size_t r = 0; r < 4; ++r) {
        CHECK(s.ranked[r].p == Approx(kFour[static_cast<size_t>(s.ranked[r].id)]).margin(1e-6));
        CHECK(s.kept_p(r) == Approx(s.ranked[r].p).margin(1e-6));
    }
    CHECK(set_of(logits_of(kFour), 1.0f, 4, 1.0f).n_kept == 4);  // k = V keeps all
    CHECK(set_of(logits_of(kFour), 1.0f, 9, 1.0f).n_kept == 4);  // and so does k > V
}

TEST_CASE("top-k = 1 is the argmax, and ties go to the lower id", "[sampling]") {
    std::mt19937 rng(5);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    for (int trial = 0; trial < 20; ++trial) {
        RowVec l(50);
        for (Eigen::Index j = 0; j < l.size(); ++j) l[j] = normal(rng);
        Eigen::Index best = 0;
        l.maxCoeff(&best);
        const SamplingSet s = set_of(l, 1.7f, 1, 1.0f);
        REQUIRE(s.n_kept == 1);
        CHECK(s.ranked[0].id == static_cast<int>(best));
        CHECK(s.kept_p(0) == Approx(1.0f));
        for (uint64_t seed = 0; seed < 5; ++seed) CHECK(sample_from(s, seed) == static_cast<int>(best));
    }
    RowVec tied(5);
    tied << 1.0f, 3.0f, 0.0f, 3.0f, 3.0f;
    CHECK(kept_ids(set_of(tied, 1.0f, 1, 1.0f)) == std::vector<int>{1});
    CHECK(kept_ids(set_of(tied, 1.0f, 2, 1.0f)) == std::vector<int>{1, 3});  // exactly k, not every tied token
    CHECK(kept_ids(set_of(tied, 1.0f, 0, 1.0f)) == std::vector<int>{1, 3, 4, 0, 2});
}

TEST_CASE("top-p keeps the token that carries the mass across top_p, as Hugging Face does", "[sampling]") {
    // Ranked: 0.50 (id 1), 0.25 (id 3), 0.15 (id 2), 0.10 (id 0). The mass before id 3 is 0.50 < 0.7,
    // so it stays; before id 2 it is 0.75 ≥ 0.7, so it goes. HF: ascending cumsum 0.10, 0.25, 0.50,
    // 1.0; it removes those ≤ 1 − 0.7 = 0.3, i.e. ids 0 and 2.
    const SamplingSet s = set_of(logits_of(kFour), 1.0f, 0, 0.7f);
    CHECK(kept_ids(s) == std::vector<int>{1, 3});
    CHECK(s.mass == Approx(0.75).margin(1e-6));
    CHECK(s.kept_p(0) == Approx(2.0 / 3.0).margin(1e-6));
    CHECK(s.kept_p(1) == Approx(1.0 / 3.0).margin(1e-6));
    CHECK(set_of(logits_of(kFour), 1.0f, 0, 0.45f).n_kept == 1);  // 0.50 already reaches 0.45
    CHECK(set_of(logits_of(kFour), 1.0f, 0, 0.76f).n_kept == 3);  // 0.75 does not reach 0.76
    CHECK(set_of(logits_of(kFour), 1.0f, 0, 0.95f).n_kept == 4);
}

TEST_CASE("a tiny top_p keeps only the most probable token", "[sampling]") {
    for (float top_p : {0.0f, 1e-6f, 0.05f}) {
        const SamplingSet s = set_of(logits_of(kFour), 1.0f, 0, top_p);
        CHECK(kept_ids(s) == std::vector<int>{1});
        CHECK(s.kept_p(0) == Approx(1.0f));
    }
}

TEST_CASE("temperature comes first, then top-k, then top-p on the top-k renormalised", "[sampling]") {
    // Top-k 2 leaves 0.50 and 0.25, renormalised 2/3 and 1/3. HF's top-p works on those: 2/3 ≥ 0.6
    // already, so only id 1 stays. (On the raw p, 0.50 < 0.6 would keep id 3 as well.)
    const SamplingSet s = set_of(logits_of(kFour), 1.0f, 2, 0.6f);
    CHECK(kept_ids(s) == std::vector<int>{1});
    CHECK(s.n_top_k == 2);
    // T = 0.5 squares p before the cut: 0.25, 0.0625, 0.0225, 0.01 over 0.345, the first 0.7246 ≥ 0.7.
    const SamplingSet cold = set_of(logits_of(kFour), 0.5f, 0, 0.7f);
    CHECK(kept_ids(cold) == std::vector<int>{1});
    CHECK(cold.ranked[0].p == Approx(0.25 / 0.345).margin(1e-5));
    // T = 2 flattens to √p: 0.3162, 0.7071, 0.3873, 0.5 over 1.9106; the first two hold 0.6318 < 0.7.
    const SamplingSet hot = set_of(logits_of(kFour), 2.0f, 0, 0.7f);
    CHECK(kept_ids(hot) == std::vector<int>{1, 3, 2});
    const double hot_sum = std::sqrt(0.10) + std::sqrt(0.50) + std::sqrt(0.15) + std::sqrt(0.25);
    CHECK(hot.mass == Approx((std::sqrt(0.50) + std::sqrt(0.25) + std::sqrt(0.15)) / hot_sum).margin(1e-5));
}

TEST_CASE("renormalised probabilities of the kept tokens sum to 1; cut ranks have none", "[sampling]") {
    std::mt19937 rng(11);
    std::normal_distribution<float> normal(0.0f, 2.0f);
    RowVec l(300);
    for (Eigen::Index j = 0; j < l.size(); ++j) l[j] = normal(rng);
    for (int top_k : {0, 1, 7, 40}) {
        for (float top_p : {0.1f, 0.5f, 0.9f, 1.0f}) {
            const SamplingSet all = set_of(l, 0.8f, top_k, top_p);  // every kept token listed
            REQUIRE(all.ranked.size() == static_cast<size_t>(all.n_kept));
            double sum = 0.0;
            for (size_t r = 0; r < all.ranked.size(); ++r) sum += static_cast<double>(all.kept_p(r));
            CHECK(sum == Approx(1.0).margin(1e-5));
            const SamplingSet s = set_of(l, 0.8f, top_k, top_p, 60);  // the first 60 ranks, kept or not
            REQUIRE(s.ranked.size() == 60);
            CHECK(s.n_kept == all.n_kept);
            for (size_t r = static_cast<size_t>(s.n_kept); r < s.ranked.size(); ++r) CHECK(s.kept_p(r) == 0.0f);
            for (size_t r = 1; r < s.ranked.size(); ++r) CHECK(s.ranked[r - 1].p >= s.ranked[r].p);
        }
    }
}

TEST_CASE("the cut matches a brute-force full sort over a large vocabulary with many ties", "[sampling]") {
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> level(-40, 10);
    RowVec l(5000);
    for (Eigen::Index j = 0; j < l.size(); ++j) l[j] = 0.25f * static_cast<float>(level(rng));  // few distinct values
    for (float top_p : {0.3f, 0.8f, 0.99f}) {
        const SamplingSet s = set_of(l, 1.3f, 0, top_p);
        // Brute force: p in double, every id sorted, then walk.
        std::vector<double> p(static_cast<size_t>(l.size()));
        const double mx = static_cast<double>(l.maxCoeff());
        double sum = 0.0;
        for (size_t j = 0; j < p.size(); ++j)
            sum += p[j] = std::exp((static_cast<double>(l[static_cast<Eigen::Index>(j)]) - mx) / 1.3);
        std::vector<int> ids(p.size());
        std::iota(ids.begin(), ids.end(), 0);
        std::sort(ids.begin(), ids.end(), [&](int a, int b) {
            return p[static_cast<size_t>(a)] > p[static_cast<size_t>(b)] ||
                   (p[static_cast<size_t>(a)] == p[static_cast<size_t>(b)] && a < b);
        });
        size_t n = 0;
        double before = 0.0;
        while (n < ids.size() && (n == 0 || before / sum < static_cast<double>(top_p)))
            before += p[static_cast<size_t>(ids[n++])];
        REQUIRE(static_cast<size_t>(s.n_kept) == n);
        CHECK(n > 20);  // the walk went past the first sorted chunk
        for (size_t r = 0; r < n; ++r) CHECK(s.ranked[r].id == ids[r]);
    }
}

TEST_CASE("the same seed draws the same token; draws land only in the kept set, in proportion", "[sampling]") {
    const RowVec l = logits_of(kFour);
    const SamplingSet s = set_of(l, 1.0f, 3, 1.0f);  // ids 1, 3, 2 renormalised over 0.9
    REQUIRE(kept_ids(s) == std::vector<int>{1, 3, 2});
    for (uint64_t seed : {0ull, 1ull, 42ull, 123456789ull}) {
        const int a = sample_from(s, seed);
        CHECK(sample_from(s, seed) == a);
        auto b = sample_token(l, {1.0f, 3, 1.0f}, seed);
        REQUIRE(b);
        CHECK(*b == a);
    }
    const int n = 20000;
    std::vector<int> count(4, 0);
    for (uint64_t seed = 1; seed <= static_cast<uint64_t>(n); ++seed)
        ++count[static_cast<size_t>(sample_from(s, seed))];
    CHECK(count[0] == 0);  // cut by top-k: never drawn
    const double expected[] = {0.0, 0.50 / 0.9, 0.15 / 0.9, 0.25 / 0.9};
    for (size_t id = 1; id < 4; ++id) CHECK(count[id] / static_cast<double>(n) == Approx(expected[id]).margin(0.015));

    // Top-p 0.7 keeps ids 1 and 3 only; the draws split 2 : 1 between them.
    const SamplingSet nucleus = set_of(l, 1.0f, 0, 0.7f);
    std::vector<int> c2(4, 0);
    for (uint64_t seed = 1; seed <= static_cast<uint64_t>(n); ++seed)
        ++c2[static_cast<size_t>(sample_from(nucleus, seed))];
    CHECK(c2[0] + c2[2] == 0);
    CHECK(c2[1] / static_cast<double>(n) == Approx(2.0 / 3.0).margin(0.015));
}

TEST_CASE("bad options and non-finite logits are refused with a message", "[sampling]") {
    const RowVec l = logits_of(kFour);
    auto cold = sampling_set(l, {0.0f, 0, 1.0f});
    REQUIRE_FALSE(cold);
    CHECK_THAT(cold.error().message, Catch::Contains("temperature"));
    CHECK_FALSE(sampling_set(l, {std::nanf(""), 0, 1.0f}));
    auto k = sampling_set(l, {1.0f, -1, 1.0f});
    REQUIRE_FALSE(k);
    CHECK_THAT(k.error().message, Catch::Contains("top-k"));
    CHECK_FALSE(sampling_set(l, {1.0f, 0, 1.5f}));
    CHECK_FALSE(sampling_set(l, {1.0f, 0, std::nanf("")}));
    RowVec bad = l;
    bad[2] = std::numeric_limits<float>::infinity();
    auto inf = sample_token(bad, {1.0f, 0, 1.0f}, 1);
    REQUIRE_FALSE(inf);
    CHECK_THAT(inf.error().message, Catch::Contains("not finite"));
    CHECK_FALSE(sampling_set(RowVec(0), {1.0f, 0, 1.0f}));
}

TEST_CASE("an excluded id is never drawn: p is the softmax over the others, as after Hugging Face's bad_words_ids",
          "[sampling]") {
    const RowVec logits = logits_of(kFour);  // id 1 the most probable (0.50)
    SamplingOptions options{1.0f, 0, 1.0f, {1}};
    auto set = sampling_set(logits, options, 4);
    REQUIRE(set);
    CHECK(set->ranked[0].id == 3);  // 0.25 / 0.5 = 0.5
    CHECK(set->ranked[0].p == Approx(0.5).epsilon(1e-6));
    CHECK(set->ranked[1].p == Approx(0.3).epsilon(1e-6));  // id 2: 0.15 / 0.5
    CHECK(set->ranked[3].id == 1);
    CHECK(set->ranked[3].p == 0.0f);
    for (uint64_t seed = 0; seed < 2000; ++seed) {
        auto drawn = sample_token(logits, options, seed);
        REQUIRE(drawn);
        CHECK(*drawn != 1);
    }
    // A huge excluded logit does not underflow the others' probabilities to nothing.
    RowVec dominated = logits;
    dominated[1] = 1e4f;
    auto kept = sampling_set(dominated, options, 4);
    REQUIRE(kept);
    CHECK(kept->ranked[0].p == Approx(0.5).epsilon(1e-6));
    options.excluded = {0, 1, 2, 3};
    auto none = sampling_set(logits, options);
    REQUIRE_FALSE(none);
    CHECK(none.error().message == "every token is excluded from generation, so there is nothing to sample from");
}
