// The "why √d_k" experiment: sample variances of q·k and mean largest softmax weights per d_k.
#include "teach/scaling_experiment.h"

#include "ops/softmax.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace attnlab {

namespace {

// N(0, 1) draws by Marsaglia's polar method over 53-bit uniforms, written out because
// std::normal_distribution differs between standard libraries.
class StandardNormal {
public:
    explicit StandardNormal(uint64_t seed) : rng_(seed) {}

    double operator()() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        double u = 0.0, v = 0.0, s = 0.0;
        do {  // a uniform point in the unit disc, without its centre
            u = uniform() * 2.0 - 1.0;
            v = uniform() * 2.0 - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double factor = std::sqrt(-2.0 * std::log(s) / s);
        spare_ = v * factor;
        has_spare_ = true;
        return u * factor;
    }

    void fill(std::vector<double>& v) {
        for (double& x : v) x = (*this)();
    }

private:
    double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }  // [0, 1)

    std::mt19937_64 rng_;
    double spare_ = 0.0;
    bool has_spare_ = false;
};

double dot(const std::vector<double>& a, const double* b) {
    double s = 0.0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

// Sample variance (divided by n − 1).
double variance(const std::vector<double>& xs) {
    double mean = 0.0;
    for (double x : xs) mean += x;
    mean /= static_cast<double>(xs.size());
    double ss = 0.0;
    for (double x : xs) ss += (x - mean) * (x - mean);
    return ss / static_cast<double>(xs.size() - 1);
}

// The largest weight of softmax(scores · factor): 1 / Σ_j e^(factor·(s_j − max)).
double largest_softmax_weight(const std::vector<double>& scores, double factor) {
    const double max = *std::max_element(scores.begin(), scores.end());
    double total = 0.0;
    for (double s : scores) total += std::exp(factor * (s - max));
    return 1.0 / total;
}

// ‖∂L/∂s‖₂ for s = scores · factor, ∂L/∂p = upstream, through the engine's softmax and its backward.
double score_gradient_norm(const std::vector<double>& scores, double factor, const std::vector<double>& upstream) {
    const int64_t n = static_cast<int64_t>(scores.size());
    Tensor s({1, n}), g({1, n});
    for (int64_t j = 0; j < n; ++j) {
        s.data[static_cast<size_t>(j)] = static_cast<float>(scores[static_cast<size_t>(j)] * factor);
        g.data[static_cast<size_t>(j)] = static_cast<float>(upstream[static_cast<size_t>(j)]);
    }
    return softmax_rows_backward(softmax_rows(s), g).matrix().norm();
}

ScalingPoint measure(int d_k, const ScalingExperimentSpec& spec) {
    // Each d_k has its own stream, so a point does not depend on which other d_k are measured.
    StandardNormal normal(spec.seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(d_k));
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d_k));
    ScalingPoint p;
    p.d_k = d_k;

    std::vector<double> q(static_cast<size_t>(d_k)), k(static_cast<size_t>(d_k));  // (D)
    std::vector<double> dots(static_cast<size_t>(spec.n_pairs));
    for (double& s : dots) {
        normal.fill(q);
        normal.fill(k);
        s = dot(q, k.data());
    }
    p.variance_unscaled = variance(dots);
    for (double& s : dots) s *= inv_sqrt_d;
    p.variance_scaled = variance(dots);

    std::vector<double> keys(static_cast<size_t>(spec.n_keys) * static_cast<size_t>(d_k));  // (n_keys, D)
    std::vector<double> scores(static_cast<size_t>(spec.n_keys));                           // q·k_j
    std::vector<double> upstream(static_cast<size_t>(spec.n_keys));                         // ∂L/∂p_j
    for (int r = 0; r < spec.n_rows; ++r) {
        normal.fill(q);
        normal.fill(keys);
        for (size_t j = 0; j < scores.size(); ++j) scores[j] = dot(q, keys.data() + j * static_cast<size_t>(d_k));
        p.max_weight_unscaled += largest_softmax_weight(scores, 1.0);
        p.max_weight_scaled += largest_softmax_weight(scores, inv_sqrt_d);
    }
    // The gradients from draws of their own, after those above, so the earlier points keep their numbers.
    for (int r = 0; r < spec.n_rows; ++r) {
        normal.fill(q);
        normal.fill(keys);
        normal.fill(upstream);
        for (size_t j = 0; j < scores.size(); ++j) scores[j] = dot(q, keys.data() + j * static_cast<size_t>(d_k));
        p.score_gradient_unscaled += score_gradient_norm(scores, 1.0, upstream);
        p.score_gradient_scaled += score_gradient_norm(scores, inv_sqrt_d, upstream);
    }
    p.max_weight_unscaled /= spec.n_rows;
    p.max_weight_scaled /= spec.n_rows;
    p.score_gradient_unscaled /= spec.n_rows;
    p.score_gradient_scaled /= spec.n_rows;
    return p;
}

}  // namespace

Result<std::vector<ScalingPoint>> scaling_experiment(const ScalingExperimentSpec& spec) {
    for (int d : spec.d_ks)
        if (d < 1 || d > 4096) return Error{"d_k must be from 1 to 4096, not " + std::to_string(d)};
    if (spec.n_pairs < 2 || spec.n_pairs > 1'000'000) return Error{"pairs must be from 2 to 1000000"};
    if (spec.n_rows < 1 || spec.n_rows > 100'000) return Error{"rows must be from 1 to 100000"};
    if (spec.n_keys < 2 || spec.n_keys > 1024) return Error{"keys per row must be from 2 to 1024"};
    std::vector<ScalingPoint> points;
    points.reserve(spec.d_ks.size());
    for (int d : spec.d_ks) points.push_back(measure(d, spec));
    return points;
}

}  // namespace attnlab
