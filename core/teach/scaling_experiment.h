// Why attention divides by √d_k (paper §3.2.1), measured: draw q and k with d_k independent
// entries of mean 0 and variance 1. Then q·k is a sum of d_k products of variance 1, so
// Var(q·k) = d_k while Var(q·k/√d_k) = 1. Unscaled, a row of scores spreads wider as d_k grows
// and its softmax puts nearly all weight on one key, where the softmax's gradient vanishes: measured too, as the
// norm of the gradient a random upstream gradient on the weights has at the scores after the engine's softmax
// backward (the attention weights step's).
#pragma once

#include "result.h"

#include <cstdint>
#include <vector>

namespace attnlab {

struct ScalingExperimentSpec {
    std::vector<int> d_ks = {2, 4, 8, 16, 32, 64, 128, 256, 512};
    int n_pairs = 4000;  // (q, k) pairs per d_k for the variances
    int n_rows = 1000;   // softmax rows per d_k for the largest weight
    int n_keys = 8;      // scores in one row: one q against n_keys keys
    uint64_t seed = 1;

    bool operator==(const ScalingExperimentSpec&) const = default;
};

struct ScalingPoint {
    int d_k = 0;
    double variance_unscaled = 0.0;    // sample variance of q·k over n_pairs
    double variance_scaled = 0.0;      // of q·k/√d_k, from the same pairs
    double max_weight_unscaled = 0.0;  // mean over n_rows of the row's largest softmax(q·k_j) weight
    double max_weight_scaled = 0.0;    // the same rows, softmax(q·k_j/√d_k)
    // Mean over the rows of ‖∂L/∂s‖₂, the gradient at the scores s the softmax is taken of, for ∂L/∂p drawn
    // N(0, 1) per key: p ⊙ (∂L/∂p − p·∂L/∂p). Near 0 when one weight is near 1.
    double score_gradient_unscaled = 0.0;
    double score_gradient_scaled = 0.0;
};

// One point per d_k, in the order given; deterministic for a seed on every platform (the
// normal draws are written out, not std::normal_distribution). Sizes are checked: d_k 1–4096,
// 2–10⁶ pairs, 1–10⁵ rows, 2–1024 keys.
Result<std::vector<ScalingPoint>> scaling_experiment(const ScalingExperimentSpec& spec);

}  // namespace attnlab
