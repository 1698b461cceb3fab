// The schemes' (H, N, N) pictures (position_schemes.h has the formulas).
#include "analysis/position_schemes.h"

#include "ops/alibi.h"
#include "ops/positional.h"
#include "ops/relative_buckets.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// The range of values[h, i, j] over every head and every cell a causal picture does not mask.
void set_range(SchemePanel& p) {
    float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
    const int H = p.heads(), N = p.positions();
    for (int h = 0; h < H; ++h)
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < (p.causal ? i + 1 : N); ++j) lo = std::min(lo, p.at(h, i, j)), hi = std::max(hi, p.at(h, i, j));
    if (H == 0 || N == 0) lo = 0.0f, hi = 1.0f;
    if (hi - lo < 1e-6f) hi = lo + 1.0f;  // a flat picture (NoPE) still has a range: its values at the bottom
    p.lo = lo, p.hi = hi;
}

// (N, N) cosines of the rows of `rows` (n, C).
Tensor row_cosines(const Mat& rows) {
    const int64_t n = rows.rows();
    Tensor out({1, n, n});
    const Eigen::VectorXf norms = rows.rowwise().norm();
    out.slice(0).noalias() = rows * rows.transpose();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) out.slice(0)(i, j) /= std::max(norms(i) * norms(j), 1e-12f);
    return out;
}

}  // namespace

std::string to_string(PositionScheme s) {
    switch (s) {
        case PositionScheme::sinusoid: return "sinusoid";
        case PositionScheme::learned: return "learned";
        case PositionScheme::rope: return "rope";
        case PositionScheme::nope: return "nope";
        case PositionScheme::t5_buckets: return "t5_buckets";
        case PositionScheme::t5_bias: return "t5_bias";
        case PositionScheme::alibi: return "alibi";
    }
    return "?";
}

std::string to_string(SchemeTarget t) {
    switch (t) {
        case SchemeTarget::embeddings: return "embeddings";
        case SchemeTarget::scores: return "scores";
        case SchemeTarget::none: return "none";
    }
    return "?";
}

SchemePanel sinusoid_panel(int n_positions, int d_model, SinusoidLayout layout) {
    SchemePanel p;
    p.scheme = PositionScheme::sinusoid;
    p.title = "Sinusoids: PE_i·PE_j / (C/2)";
    p.added_to = SchemeTarget::embeddings;
    const Tensor pe = sinusoidal_encoding(n_positions, d_model, layout);  // (N, C)
    p.values = Tensor({1, n_positions, n_positions});
    p.values.slice(0).noalias() = pe.matrix() * pe.matrix().transpose();
    p.values.matrix() *= 2.0f / static_cast<float>(d_model);
    set_range(p);
    return p;
}

Result<SchemePanel> learned_panel(const Tensor& table, int n_positions) {
    if (table.rank() != 2) return Error{"the learned position table is " + shape_string(table.shape) + ", not (P, C)"};
    if (table.dim(0) < n_positions)
        return Error{"the learned position table has " + std::to_string(table.dim(0)) + " rows, fewer than the " +
                     std::to_string(n_positions) + " positions"};
    SchemePanel p;
    p.scheme = PositionScheme::learned;
    p.title = "Learned: cos(P_i, P_j)";
    p.added_to = SchemeTarget::embeddings;
    p.from_model = true;
    p.values = row_cosines(table.matrix().topRows(n_positions));
    set_range(p);
    return p;
}

SchemePanel rope_panel(int n_positions, const std::vector<float>& inverse_frequencies, bool from_model) {
    SchemePanel p;
    p.scheme = PositionScheme::rope;
    p.title = "RoPE: (2/D)·Σ_k cos((i − j)·θ_k)";
    p.added_to = SchemeTarget::none;
    p.from_model = from_model;
    p.values = Tensor({1, n_positions, n_positions});
    const double pairs = std::max<size_t>(inverse_frequencies.size(), 1);
    for (int i = 0; i < n_positions; ++i)
        for (int j = 0; j < n_positions; ++j) {
            double sum = 0.0;
            for (float theta : inverse_frequencies) sum += std::cos(static_cast<double>(i - j) * theta);
            p.values.slice(0)(i, j) = static_cast<float>(sum / pairs);
        }
    set_range(p);
    return p;
}

SchemePanel nope_panel(int n_positions) {
    SchemePanel p;
    p.scheme = PositionScheme::nope;
    p.title = "NoPE: nothing added";
    p.added_to = SchemeTarget::none;
    p.causal = true;
    p.values = Tensor({1, n_positions, n_positions});
    set_range(p);
    return p;
}

SchemePanel t5_bucket_panel(int n_positions, bool bidirectional, int n_buckets, int max_distance) {
    SchemePanel p;
    p.scheme = PositionScheme::t5_buckets;
    p.title = "T5 buckets: bucket(j − i)";
    p.added_to = SchemeTarget::scores;
    p.causal = !bidirectional;
    const std::vector<int> buckets = relative_bucket_map(n_positions, n_positions, bidirectional, n_buckets, max_distance);
    p.values = Tensor({1, n_positions, n_positions});
    for (size_t k = 0; k < buckets.size(); ++k) p.values.data[k] = static_cast<float>(buckets[k]);
    set_range(p);
    return p;
}

Result<SchemePanel> t5_bias_panel(int n_positions, const Tensor& table, bool bidirectional, int n_buckets,
                                  int max_distance) {
    if (table.rank() != 2 || table.dim(0) != n_buckets)
        return Error{"the relative attention bias is " + shape_string(table.shape) + ", not (" +
                     std::to_string(n_buckets) + ", H)"};
    SchemePanel p;
    p.scheme = PositionScheme::t5_bias;
    p.title = "T5 bias: table[bucket(j − i), h]";
    p.added_to = SchemeTarget::scores;
    p.causal = !bidirectional;
    p.from_model = true;
    p.values = relative_bias(table, relative_bucket_map(n_positions, n_positions, bidirectional, n_buckets, max_distance),
                             n_positions, n_positions);
    set_range(p);
    return p;
}

Result<SchemePanel> t5_traced_bias_panel(const Tensor& bias, bool bidirectional) {
    if (bias.rank() != 3 || bias.dim(1) != bias.dim(2))
        return Error{"the position bias is " + shape_string(bias.shape) + ", not (H, N, N)"};
    SchemePanel p;
    p.scheme = PositionScheme::t5_bias;
    p.title = "T5 bias: table[bucket(j − i), h]";
    p.added_to = SchemeTarget::scores;
    p.causal = !bidirectional;
    p.from_model = true;
    p.values = bias;
    set_range(p);
    return p;
}

SchemePanel alibi_panel(int n_positions, int n_heads, bool from_model) {
    SchemePanel p;
    p.scheme = PositionScheme::alibi;
    p.title = "ALiBi: −slope_h·(i − j)";
    p.added_to = SchemeTarget::scores;
    p.causal = true;
    p.from_model = from_model;
    p.per_head = alibi_slopes(n_heads);
    p.values = alibi_bias(p.per_head, n_positions);  // (H, N, N); above the diagonal the mask hides it
    set_range(p);
    return p;
}

}  // namespace attnlab
