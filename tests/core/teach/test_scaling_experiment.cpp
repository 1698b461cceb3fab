// The "why √d_k" experiment: Var(q·k) ≈ d_k, Var(q·k/√d_k) ≈ 1, and the unscaled softmax saturates.
#include "teach/scaling_experiment.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

TEST_CASE("the variance of q·k is about d_k unscaled and about 1 scaled", "[teach]") {
    // With q, k ~ N(0, I) of size d, q·k is a sum of d products z = q_i·k_i with E z = 0, E z² = 1 and
    // E z⁴ = E q⁴·E k⁴ = 9. So Var(q·k) = d, and its fourth moment is 9d + 3d(d−1) = 3d² + 6d.
    // The sample variance of N draws then has standard deviation √((3d² + 6d − d²)/N) = d·√((2 + 6/d)/N):
    // relative to d, at most √(5/N) = 2.2% (d = 2) and at least √(2/N) = 1.4% for N = 10000.
    // A 12% tolerance is more than five standard deviations for every d_k, so any seed passes.
    ScalingExperimentSpec spec;
    spec.n_pairs = 10000;
    spec.n_rows = 10;
    const auto points = scaling_experiment(spec);
    REQUIRE(points);
    REQUIRE(points->size() == spec.d_ks.size());
    for (const ScalingPoint& p : *points) {
        INFO("d_k = " << p.d_k);
        CHECK(p.variance_unscaled == Approx(p.d_k).epsilon(0.12));
        CHECK(p.variance_scaled == Approx(1.0).epsilon(0.12));
    }
}

TEST_CASE("without scaling the largest softmax weight grows towards 1; with it, it stays put", "[teach]") {
    // Mean of 2000 rows of 8 keys. A row's largest weight lies in (1/8, 1], so the mean's standard error is
    // under 0.5/√2000 ≈ 0.011; the slack of 0.03 between neighbours is about three of those standard
    // errors of a difference. Measured (seed 1): unscaled 0.41 at d_k = 2 up to 0.96 at 512; scaled about 0.35.
    ScalingExperimentSpec spec;
    spec.n_pairs = 10;
    spec.n_rows = 2000;
    const auto points = scaling_experiment(spec);
    REQUIRE(points);
    const auto& p = *points;
    for (size_t i = 0; i + 1 < p.size(); ++i) {
        INFO("d_k = " << p[i].d_k << " -> " << p[i + 1].d_k);
        CHECK(p[i + 1].max_weight_unscaled > p[i].max_weight_unscaled - 0.03);
    }
    CHECK(p.front().max_weight_unscaled < 0.6);
    CHECK(p.back().max_weight_unscaled > 0.9);
    for (const ScalingPoint& q : p) {
        INFO("d_k = " << q.d_k);
        CHECK(q.max_weight_scaled > 0.25);
        CHECK(q.max_weight_scaled < 0.45);
        CHECK(q.max_weight_unscaled >= q.max_weight_scaled - 0.03);
    }
}

TEST_CASE("the gradient reaching the scores through the softmax vanishes unscaled and holds scaled",
          "[teach][backward]") {
    // ‖∂L/∂s‖ for ∂L/∂p ~ N(0, I) over 8 keys: p ⊙ (g − p·g). With the weights spread (scaled) it stays near its
    // d_k = 2 size at every d_k; unscaled, the rows saturate as d_k grows and it shrinks with them. Measured
    // (seed 1, 2000 rows): scaled 0.33-0.34 at every d_k; unscaled 0.32 at d_k = 2, 0.12 at 64, 0.055 at 512.
    ScalingExperimentSpec spec;
    spec.n_pairs = 10;
    spec.n_rows = 2000;
    const auto points = scaling_experiment(spec);
    REQUIRE(points);
    const auto& p = *points;
    const double scaled_at_2 = p.front().score_gradient_scaled;
    CHECK(scaled_at_2 > 0.1);
    for (const ScalingPoint& q : p) {
        INFO("d_k = " << q.d_k);
        CHECK(q.score_gradient_scaled == Approx(scaled_at_2).epsilon(0.25));
        CHECK(q.score_gradient_unscaled <= q.score_gradient_scaled * 1.1);
    }
    for (size_t i = 0; i + 1 < p.size(); ++i) {
        INFO("d_k = " << p[i].d_k << " -> " << p[i + 1].d_k);
        CHECK(p[i + 1].score_gradient_unscaled < p[i].score_gradient_unscaled + 0.01);
    }
    CHECK(p.back().score_gradient_unscaled < 0.25 * p.back().score_gradient_scaled);
    CHECK(p.back().score_gradient_unscaled < 0.25 * p.front().score_gradient_unscaled);
}

TEST_CASE("the experiment is fixed by its seed, point by point, and checks its sizes", "[teach]") {
    ScalingExperimentSpec spec;
    spec.d_ks = {4, 64};
    spec.n_pairs = 500;
    spec.n_rows = 100;
    const auto a = scaling_experiment(spec);
    const auto b = scaling_experiment(spec);
    REQUIRE(a);
    REQUIRE(b);
    CHECK((*a)[1].variance_unscaled == (*b)[1].variance_unscaled);
    CHECK((*a)[1].max_weight_unscaled == (*b)[1].max_weight_unscaled);
    ScalingExperimentSpec only_64 = spec;
    only_64.d_ks = {64};
    const auto c = scaling_experiment(only_64);
    REQUIRE(c);
    CHECK((*c)[0].variance_unscaled == (*a)[1].variance_unscaled);  // the d_k = 4 point drew from its own stream
    spec.seed = 2;
    const auto d = scaling_experiment(spec);
    REQUIRE(d);
    CHECK((*d)[1].variance_unscaled != (*a)[1].variance_unscaled);

    using Breakage = void (*)(ScalingExperimentSpec&);
    for (Breakage broken :
         {+[](ScalingExperimentSpec& s) { s.d_ks = {0}; }, +[](ScalingExperimentSpec& s) { s.n_pairs = 1; },
          +[](ScalingExperimentSpec& s) { s.n_rows = 0; }, +[](ScalingExperimentSpec& s) { s.n_keys = 1; }}) {
        ScalingExperimentSpec bad;
        broken(bad);
        const auto r = scaling_experiment(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find('\n') == std::string::npos);
    }
}
