// Checking a backward against central finite differences of its float forward, through the
// reference loss L = Σ r ⊙ f(x) (summed in double) with a fixed random r. Shared by the op tests.
#pragma once

#include "tensor.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace attnlab::grad_check {

// Central differences on float inputs: a step of 1e-3 on values of order 1 keeps the truncation
// error (~h²·f'''/6) near 1e-7 and the float rounding of the outputs a perturbation touches
// (~√k·6e-8/2h) near 1e-4, both well inside the tolerance below.
constexpr float kStep = 1e-3f;
constexpr double kAbsTol = 1e-3;
constexpr double kRelTol = 1e-2;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

inline Tensor random_tensor(Shape shape, uint32_t seed, float stddev = 1.0f, float mean = 0.0f) {
    Tensor t(std::move(shape));
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(mean, stddev);
    for (float& x : t.data) x = normal(rng);
    return t;
}

// Σ r ⊙ y, in double.
inline double weighted_sum(const Tensor& r, const Tensor& y) {
    REQUIRE(r.shape == y.shape);
    double s = 0.0;
    for (size_t i = 0; i < y.data.size(); ++i) s += static_cast<double>(r.data[i]) * y.data[i];
    return s;
}

inline double max_abs(const Tensor& t) {
    double m = 0.0;
    for (float x : t.data) m = std::max(m, static_cast<double>(std::abs(x)));
    return m;
}

// Checks analytic = dL/d(input) entry by entry against central differences of loss(), which reads
// `input`. Non-finite entries (−∞ masks) cannot be perturbed; their gradient must be exactly 0.
template <class Loss>
void check_against_fd(Tensor& input, const Tensor& analytic, const Loss& loss, const std::string& what) {
    REQUIRE(analytic.shape == input.shape);
    double worst = 0.0, largest_fd = 0.0;
    for (size_t i = 0; i < input.data.size(); ++i) {
        INFO(what << " entry " << i);
        const float saved = input.data[i];
        if (!std::isfinite(saved)) {
            CHECK(analytic.data[i] == 0.0f);
            continue;
        }
        const float plus = saved + kStep, minus = saved - kStep;
        input.data[i] = plus;
        const double l_plus = loss();
        input.data[i] = minus;
        const double l_minus = loss();
        input.data[i] = saved;
        // Divide by the step actually taken, after float rounding of x ± h.
        const double fd = (l_plus - l_minus) / (static_cast<double>(plus) - static_cast<double>(minus));
        const double err = std::abs(static_cast<double>(analytic.data[i]) - fd);
        INFO("analytic " << analytic.data[i] << ", finite difference " << fd);
        CHECK(err <= kAbsTol + kRelTol * std::abs(fd));
        worst = std::max(worst, err);
        largest_fd = std::max(largest_fd, std::abs(fd));
    }
    INFO(what << ": worst error " << worst);
    CHECK(largest_fd > 0.05);  // the comparison is not vacuous: the loss depends on this input
}

}  // namespace attnlab::grad_check
