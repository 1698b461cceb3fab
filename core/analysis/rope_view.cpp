// RoPE in one head: the angle table, the frequencies before and after scaling, and one query's and
// one key's pairs and score as a function of their offset, checked against the trace.
#include "analysis/rope_view.h"

#include "forward/mechanisms/layer_variants.h"
#include "forward/mechanisms/positions.h"
#include "ops/attention.h"
#include "ops/rotary.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace attnlab {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// q·k as QKᵀ computes it (ops/gemm.h: one fma chain over d in order), then ·s as the scaled stage does.
float scaled_dot(const float* q, const float* k, int head_dim, float scale) {
    float acc = 0.0f;
    for (int d = 0; d < head_dim; ++d) acc = std::fma(q[d], k[d], acc);
    return acc * scale;
}

// One row (D,) turned as the model turns a row at `position`: (D,).
std::vector<float> turned(const float* x, int head_dim, const std::vector<float>& theta, int64_t position) {
    Tensor row({1, head_dim});
    std::copy(x, x + head_dim, row.data.begin());
    const Tensor out = rotate_rows_at(row, theta, position);
    return std::vector<float>(out.data.begin(), out.data.end());
}

// (D,) -> (D/2, 2): pair i = (x[i], x[i + D/2]).
Mat as_pairs(const float* x, int head_dim) {
    const int half = head_dim / 2;
    Mat p(half, 2);  // (D/2, 2)
    for (int i = 0; i < half; ++i) p(i, 0) = x[i], p(i, 1) = x[i + half];
    return p;
}

int stack_layers(const ModelConfig& c, Stack stack) {
    return stack == Stack::encoder ? (c.has_encoder() ? c.n_encoder_layers : 0)
                                   : (c.has_decoder() ? c.n_decoder_layers : 0);
}

}  // namespace

int rope_table_positions(int n_tokens) { return std::max(n_tokens, 32); }

RopeAngleTable rope_angle_table(const std::vector<float>& inverse_frequencies, int n_positions) {
    assert(n_positions >= 0);
    const int half = static_cast<int>(inverse_frequencies.size());
    RopeAngleTable t{Mat(n_positions, half), Mat(n_positions, half)};  // (P, D/2) each
    for (int p = 0; p < n_positions; ++p)
        for (int i = 0; i < half; ++i) {
            const float angle = rope_angle(p, inverse_frequencies[static_cast<size_t>(i)]);
            double wrapped = std::fmod(static_cast<double>(angle), kTwoPi);
            if (wrapped < 0.0) wrapped += kTwoPi;
            t.angle(p, i) = static_cast<float>(wrapped);
            t.cos(p, i) = std::cos(angle);
        }
    return t;
}

RopeConfig rope_shown_at(const ModelConfig& config, int layer) {
    const std::optional<RopeConfig> own = rope_of_layer(config, layer);
    return own ? *own : config.rope;
}

RopeFrequencies rope_frequencies(const RopeConfig& rope, int head_dim) {
    RopeFrequencies f{rope, {}, 0.0, 0.0};
    const std::vector<float> theta = rope_unscaled_frequencies(rope, head_dim);
    const std::vector<float> scaled = rope_inverse_frequencies(rope, head_dim);
    if (rope.scaling == RopeScaling::llama3) {
        f.low_freq_wavelength = rope.original_max_position / static_cast<double>(rope.low_freq_factor);
        f.high_freq_wavelength = rope.original_max_position / static_cast<double>(rope.high_freq_factor);
    }
    for (size_t i = 0; i < theta.size(); ++i) {
        RopePairFrequency p;
        p.theta = theta[i];
        p.scaled_theta = scaled[i];
        p.wavelength = kTwoPi / theta[i];
        p.scaled_wavelength = kTwoPi / scaled[i];
        switch (rope.scaling) {
            case RopeScaling::none: p.band = RopeBand::unscaled; break;
            case RopeScaling::linear: p.band = RopeBand::divided; break;
            case RopeScaling::llama3:  // as rope_inverse_frequencies decides, on the same double wavelength
                p.band = p.wavelength > f.low_freq_wavelength    ? RopeBand::divided
                         : p.wavelength < f.high_freq_wavelength ? RopeBand::kept
                                                                 : RopeBand::blended;
                break;
        }
        f.pairs.push_back(p);
    }
    return f;
}

AttentionUse rope_attention_use(const ModelConfig& config) {
    return config.has_encoder() ? AttentionUse::encoder_self : AttentionUse::decoder_self;
}

std::vector<float> rope_score_curve(const float* q, const float* k, int head_dim,
                                    const std::vector<float>& inverse_frequencies, int64_t query_position,
                                    const std::vector<int>& offsets, float scale) {
    assert(head_dim == 2 * static_cast<int>(inverse_frequencies.size()));
    const std::vector<float> q_turned = turned(q, head_dim, inverse_frequencies, query_position);  // (D,)
    std::vector<float> scores;
    scores.reserve(offsets.size());
    for (int delta : offsets) {
        const std::vector<float> k_turned = turned(k, head_dim, inverse_frequencies, query_position - delta);
        scores.push_back(scaled_dot(q_turned.data(), k_turned.data(), head_dim, scale));
    }
    return scores;
}

Result<RopeView> rope_view(const Stepper& stepper, const RopeHeadRef& ref, const std::vector<int>& shifts) {
    const ModelConfig& c = stepper.config();
    if (!PositionMechanism(c).rotates_queries_and_keys()) return Error{"this model has no rotary positions"};
    const AttentionUse use = rope_attention_use(c);
    const int layers = stack_layers(c, stack_of(use));
    if (ref.layer < 0 || ref.layer >= layers)
        return Error{"layer " + std::to_string(ref.layer) + " is outside layers 0.." + std::to_string(layers - 1)};
    if (ref.head < 0 || ref.head >= c.n_heads)
        return Error{"head " + std::to_string(ref.head) + " is outside heads 0.." + std::to_string(c.n_heads - 1)};
    const AttentionSite site{use, ref.layer};
    const auto q_rot_step = stepper.find(StepId::attention_at(site, AttentionStage::q_rot));
    const auto k_rot_step = stepper.find(StepId::attention_at(site, AttentionStage::k_rot));
    if (!q_rot_step || !k_rot_step) return Error{"this attention has no rotation steps"};
    // What the rotation turned: its step's input (q, or qwen3's q_norm), read from the graph.
    const Tensor* q = stepper.output(stepper.step(*q_rot_step).inputs.at(0));                   // (H, T, D)
    const Tensor* k = stepper.output(stepper.step(*k_rot_step).inputs.at(0));                   // (H_kv, T, D)
    const Tensor* scaled = stepper.output(StepId::attention_at(site, AttentionStage::scaled));  // (H, T, T)
    if (!q || !k || !scaled) return Error{"not run yet"};
    const int H = c.n_heads, D = c.d_head(), T = static_cast<int>(q->dim(1));
    if (q->rank() != 3 || q->dim(0) != H || q->dim(2) != D || k->rank() != 3 || k->dim(0) != c.kv_heads() ||
        k->dim(1) != T || k->dim(2) != D)
        return Error{"the trace's Q and K do not have the shapes (H, T, D) and (H_kv, T, D)"};
    if (scaled->rank() != 3 || scaled->dim(0) != H || scaled->dim(1) != T || scaled->dim(2) != T)
        return Error{"the trace's scaled scores do not have the shape (H, T, T)"};
    if (ref.query < 0 || ref.query >= T || ref.key < 0 || ref.key >= T)
        return Error{"query " + std::to_string(ref.query) + " or key " + std::to_string(ref.key) +
                     " is outside rows 0.." + std::to_string(T - 1)};

    RopeView v;
    v.ref = ref;
    v.use = use;
    v.n_tokens = T;
    const std::optional<RopeConfig> rope = rope_of_layer(c, ref.layer);  // a local layer's base (Gemma 3)
    if (!rope) return Error{"this layer does not rotate Q and K"};
    v.frequencies = rope_inverse_frequencies(*rope, D);
    // The scaled stage's multiplier: 1/√D, or the family's own (Gemma's query_pre_attn_scalar^−½).
    const float scale = c.attention_scale > 0.0f ? c.attention_scale : 1.0f / std::sqrt(static_cast<float>(D));
    const int m = ref.query, n = ref.key;
    const int g = static_cast<int>(kv_head_of(ref.head, H, c.kv_heads()));
    const float* q_row = q->data.data() + (static_cast<int64_t>(ref.head) * T + m) * D;  // (D,)
    const float* k_row = k->data.data() + (static_cast<int64_t>(g) * T + n) * D;         // (D,)

    RopePairs& p = v.pairs;
    p.kv_head = g;
    p.q = as_pairs(q_row, D);
    p.k = as_pairs(k_row, D);
    const std::vector<float> q_turned = turned(q_row, D, v.frequencies, m),
                             k_turned = turned(k_row, D, v.frequencies, n);
    p.q_rot = as_pairs(q_turned.data(), D);
    p.k_rot = as_pairs(k_turned.data(), D);
    for (int i = 0; i < D / 2; ++i) {
        p.q_angle.push_back(rope_angle(m, v.frequencies[static_cast<size_t>(i)]));
        p.k_angle.push_back(rope_angle(n, v.frequencies[static_cast<size_t>(i)]));
        p.contribution.push_back((p.q_rot(i, 0) * p.k_rot(i, 0) + p.q_rot(i, 1) * p.k_rot(i, 1)) * scale);
    }

    RopeScoreCurve& curve = v.curve;
    for (int d = -(T - 1); d <= T - 1; ++d) curve.offsets.push_back(d);
    curve.scores = rope_score_curve(q_row, k_row, D, v.frequencies, m, curve.offsets, scale);
    curve.pair_waves = Mat(D / 2, static_cast<Eigen::Index>(curve.offsets.size()));  // (D/2, 2T − 1)
    const double scale_exact = c.attention_scale > 0.0f ? c.attention_scale : 1.0 / std::sqrt(static_cast<double>(D));
    for (int i = 0; i < D / 2; ++i) {
        const double qa = p.q(i, 0), qb = p.q(i, 1), ka = p.k(i, 0), kb = p.k(i, 1);
        const double a = qa * ka + qb * kb, b = qa * kb - qb * ka;
        for (size_t j = 0; j < curve.offsets.size(); ++j) {
            const double angle = static_cast<double>(curve.offsets[j]) * v.frequencies[static_cast<size_t>(i)];
            curve.pair_waves(i, static_cast<Eigen::Index>(j)) =
                static_cast<float>((a * std::cos(angle) + b * std::sin(angle)) * scale_exact);
        }
    }
    for (int s : shifts) {
        const std::vector<float> moved = rope_score_curve(q_row, k_row, D, v.frequencies, m + s, curve.offsets, scale);
        float worst = 0.0f;
        for (size_t i = 0; i < moved.size(); ++i) worst = std::max(worst, std::abs(moved[i] - curve.scores[i]));
        curve.shifts.push_back({s, worst, moved});
    }
    curve.actual_offset = m - n;
    curve.at_actual = curve.scores[static_cast<size_t>(curve.actual_offset + T - 1)];
    curve.traced_scaled = scaled->data[static_cast<size_t>((static_cast<int64_t>(ref.head) * T + m) * T + n)];
    curve.traced_difference = std::abs(curve.at_actual - curve.traced_scaled);
    return v;
}

}  // namespace attnlab
