#include "analysis/head_diversity.h"
#include "analysis/attention_weights.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// The rows of p that are not fully masked.
std::vector<int64_t> live_rows(const ConstMatMap& p) {
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < p.rows(); ++i)
        if (p.row(i).sum() > 0.0f) rows.push_back(i);
    return rows;
}

// max_k mean_i p[i][k] over the given rows
float top_key_share(const ConstMatMap& p, const std::vector<int64_t>& rows) {
    if (rows.empty()) return 0.0f;
    RowVec column_sums = RowVec::Zero(p.cols());  // (Tk)
    for (int64_t i : rows) column_sums += p.row(i);
    return column_sums.maxCoeff() / static_cast<float>(rows.size());
}

// mean over the given rows and every key of |a − b|
float mean_abs_difference(const ConstMatMap& a, const ConstMatMap& b, const std::vector<int64_t>& rows) {
    if (rows.empty()) return 0.0f;
    double sum = 0;
    for (int64_t i : rows) sum += (a.row(i) - b.row(i)).cwiseAbs().sum();
    return static_cast<float>(sum / (static_cast<double>(rows.size()) * static_cast<double>(a.cols())));
}

}  // namespace

std::vector<HeadDiversity> head_diversity(const Tensor& weights) {
    assert(weights.rank() == 3);
    const int64_t H = weights.dim(0);
    std::vector<HeadDiversity> out(static_cast<size_t>(H));
    if (H == 0) return out;
    // Every head of one attention shares its mask, so head 0's live rows are every head's.
    const std::vector<int64_t> rows = live_rows(weights.slice(0));
    for (int64_t h = 0; h < H; ++h) {
        HeadDiversity& d = out[static_cast<size_t>(h)];
        d.top_key_share = top_key_share(weights.slice(h), rows);
        d.nearest_difference = std::numeric_limits<float>::quiet_NaN();
        for (int64_t other = 0; other < H; ++other) {
            if (other == h) continue;
            const float diff = mean_abs_difference(weights.slice(h), weights.slice(other), rows);
            if (d.nearest_head < 0 || diff < d.nearest_difference) {
                d.nearest_head = static_cast<int>(other);
                d.nearest_difference = diff;
            }
        }
    }
    return out;
}

float HeadDiversitySummary::Layer::min_pair_difference() const {
    float out = std::numeric_limits<float>::quiet_NaN();
    for (const HeadDiversity& d : heads)
        if (!std::isnan(d.nearest_difference) && (std::isnan(out) || d.nearest_difference < out))
            out = d.nearest_difference;
    return out;
}

float HeadDiversitySummary::Layer::max_top_key_share() const {
    float out = 0.0f;
    for (const HeadDiversity& d : heads) out = std::max(out, d.top_key_share);
    return out;
}

HeadDiversitySummary summarize_head_diversity(const Stepper& stepper) {
    HeadDiversitySummary summary;
    for (const AttentionWeights& a : attention_weights_run(stepper))
        summary.layers.push_back({a.attention, head_diversity(*a.weights)});
    return summary;
}

}  // namespace attnlab
