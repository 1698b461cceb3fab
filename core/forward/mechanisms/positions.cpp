#include "forward/mechanisms/positions.h"

#include "forward/mechanisms/layer_variants.h"

#include "ops/positional.h"
#include "ops/rotary.h"
#include "ops/row_stats.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>

namespace attnlab {

namespace {

// Each sequence of a batch gets the same positions 0..T−1: rows (T, C) -> (B·T, C).
Tensor each_sequence(const Tensor& rows, int batch) {
    if (batch == 1) return rows;
    Tensor out({batch * rows.dim(0), rows.dim(1)});
    for (int b = 0; b < batch; ++b) out.matrix().middleRows(b * rows.dim(0), rows.dim(0)) = rows.matrix();
    return out;
}

int64_t length_of(const ForwardInputs& inputs, Stack stack) {  // T of the stack's sequences
    return stack == Stack::encoder ? inputs.src_length() : inputs.tgt_length();
}

Step sinusoid_step(Stack stack, SinusoidLayout layout, int d_model, Control ids_control) {
    const bool halves = layout == SinusoidLayout::halves;
    return {halves ? "Sinusoidal positional encoding (sines, then cosines)" : "Sinusoidal positional encoding",
            halves ? "PE(pos, i) = sin(pos / 10000^(2i/C)),  PE(pos, C/2 + i) = cos(pos / 10000^(2i/C))"
                   : "PE(pos, 2i) = sin(pos / 10000^(2i/C)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/C))",
            {},
            {},
            {ids_control},
            "C=" + std::to_string(d_model),
            [stack, layout, d_model](const StepContext& ctx) {
                return StepOutput{
                    each_sequence(sinusoidal_encoding(length_of(ctx.inputs, stack), d_model, layout), ctx.inputs.batch),
                    {}};  // (B·T, C)
            }};
}

Step learned_step(Stack stack, const std::string& table, Control ids_control) {
    return {"Learned position embeddings",
            "P[pos]",
            {},
            {table},
            {ids_control},
            "",
            [stack, table](const StepContext& ctx) {
                const int64_t n = length_of(ctx.inputs, stack);
                const Tensor& P = ctx.param(table);  // (max_len, C)
                assert(n <= P.dim(0));
                Tensor x({n, P.dim(1)});  // (T, C)
                x.matrix() = P.matrix().topRows(n);
                return StepOutput{each_sequence(x, ctx.inputs.batch), {}};
            },
            [table](const BackwardContext& b) {  // dP[pos] += dx[pos] of every sequence
                Tensor& dP = b.param_grad(table);
                const int64_t n = b.d_output.dim(0) / b.inputs.batch;
                for (int s = 0; s < b.inputs.batch; ++s)
                    dP.matrix().topRows(n) += b.d_output.matrix().middleRows(s * n, n);
                return InputGrads{};
            }};
}

// One sine–cosine pair of frequency i, read from the table: PE(pos, 2i) = sin(pos / 10000^(2i/C)) and
// PE(pos, 2i+1) = cos(same angle) interleaved, or columns i and ⌈C/2⌉ + i in halves.
ExplainNumbers sinusoid_numbers(const Tensor& pe, int64_t pos, int64_t dim, SinusoidLayout layout) {  // pe (N, C)
    const int64_t C = pe.dim(1), n_sines = (C + 1) / 2;
    const bool halves = layout == SinusoidLayout::halves;
    const int64_t i = halves ? std::min(dim < n_sines ? dim : dim - n_sines, C / 2 - 1)
                             : std::max<int64_t>(0, std::min(dim - dim % 2, C - 2)) / 2;
    const int64_t sin_col = halves ? i : 2 * i, cos_col = std::min(halves ? n_sines + i : 2 * i + 1, C - 1);
    const double angle =
        static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(2 * i) / static_cast<double>(C));
    auto whole = [](int64_t n) { return static_cast<double>(n); };
    return {{"two_i", whole(2 * i), ShownAs::whole},
            {"two_i1", whole(2 * i + 1), ShownAs::whole},
            {"sin_col", whole(sin_col), ShownAs::whole},
            {"cos_col", whole(cos_col), ShownAs::whole},
            {"angle", angle},
            {"sin", pe.row(pos)(sin_col)},
            {"cos", pe.row(pos)(cos_col)}};
}

}  // namespace

std::string rope_variant(const RopeConfig& rope) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "rope theta=%.9g scaling=%s factor=%.9g low=%.9g high=%.9g original=%d",
                  static_cast<double>(rope.theta), to_string(rope.scaling).c_str(), static_cast<double>(rope.factor),
                  static_cast<double>(rope.low_freq_factor), static_cast<double>(rope.high_freq_factor),
                  rope.original_max_position);
    return buf;
}

PositionMechanism::PositionMechanism(const ModelConfig& config)
    : scheme_(config.positional),
      layout_(config.sinusoid_layout),
      rope_(config.rope),
      d_model_(config.d_model),
      d_head_(config.d_head()) {
    for (int layer = 0; layer < std::max(config.n_encoder_layers, config.n_decoder_layers); ++layer)
        layer_ropes_.push_back(rope_of_layer(config, layer));
}

const std::optional<RopeConfig>& PositionMechanism::rope_at(int layer) const {
    static const std::optional<RopeConfig> none;
    return layer >= 0 && static_cast<size_t>(layer) < layer_ropes_.size() ? layer_ropes_[static_cast<size_t>(layer)]
                                                                            : none;
}

std::optional<PlacedStep> PositionMechanism::embedding_step(Stack stack, const EmbeddingParams& params,
                                                            Control ids_control) const {
    const StepId id = StepId::of(StepKind::position, stack);
    switch (scheme_) {
        case Positional::sinusoidal: return PlacedStep{id, sinusoid_step(stack, layout_, d_model_, ids_control)};
        case Positional::learned: return PlacedStep{id, learned_step(stack, params.positions, ids_control)};
        case Positional::none:
        case Positional::rotary:
        case Positional::alibi:  // these three act inside the attention, not on the embeddings
        case Positional::relative_buckets: return std::nullopt;
    }
    return std::nullopt;
}

PlacedStep PositionMechanism::rotation_step(const AttentionSite& site, AttentionStage stage,
                                            const StepId& input) const {
    assert(rotates_at(site.layer) && (stage == AttentionStage::q_rot || stage == AttentionStage::k_rot));
    const RopeConfig& rope = *rope_at(site.layer);
    const std::vector<float> frequencies = rope_inverse_frequencies(rope, d_head_);
    const std::string letter = stage == AttentionStage::q_rot ? "Q" : "K",
                      x = stage == AttentionStage::q_rot ? "q" : "k";
    return {StepId::attention_at(site, stage),
            {"Rotate " + letter + " by position (RoPE)",
             x + "'[i], " + x + "'[i+D/2] = " + x + "[i]·cos(pθ_i) − " + x + "[i+D/2]·sin(pθ_i), " + x +
                 "[i+D/2]·cos(pθ_i) + " + x + "[i]·sin(pθ_i)",
             {input},
             {},
             {},
             rope_variant(rope),
             [frequencies](const StepContext& ctx) {
                 return StepOutput{apply_rotary(ctx.input(0), frequencies, ctx.first_row), {}};
             },
             [frequencies](const BackwardContext& b) {  // every row, from position 0
                 return InputGrads{apply_rotary_backward(b.d_output, frequencies, 0)};
             }}};
}

Tensor PositionMechanism::rotated_at(const Tensor& rows, int64_t position, int layer) const {
    const std::optional<RopeConfig>& rope = rope_at(layer);
    return rope ? rotate_rows_at(rows, rope_inverse_frequencies(*rope, d_head_), position) : rows;
}

const char* PositionMechanism::token_embedding_kind() const {
    if (scheme_ == Positional::alibi || scheme_ == Positional::relative_buckets) return "embed_score_bias";
    return scheme_ == Positional::rotary ? "embed_rotary" : "embed";
}

const char* PositionMechanism::position_kind() const {
    if (scheme_ == Positional::learned) return "pos_learned";
    return layout_ == SinusoidLayout::halves ? "pos_sinusoidal_halves" : "pos_sinusoidal";
}

ExplainNumbers PositionMechanism::position_numbers(const Tensor& positions, int64_t pos,
                                                   std::optional<int64_t> focused_col) const {
    const bool sinusoid = scheme_ == Positional::sinusoidal;
    const int64_t col = focused_col ? *focused_col : std::min<int64_t>(sinusoid ? 2 : 0, positions.dim(1) - 1);
    if (sinusoid) return sinusoid_numbers(positions, pos, col, layout_);
    return {{"dim", static_cast<double>(col), ShownAs::whole},
            {"value", positions.row(pos)(col)},
            {"norm", row_norm(positions.row(pos))}};
}

const char* PositionMechanism::encoding_text() const {
    switch (scheme_) {
        case Positional::sinusoidal:
            return layout_ == SinusoidLayout::halves
                       ? "PE(pos, i) = sin(pos / 10000^(2i/C)),   PE(pos, C/2 + i) = cos(pos / 10000^(2i/C))"
                       : "PE(pos, 2i) = sin(pos / 10000^(2i/C)),   PE(pos, 2i+1) = cos(pos / 10000^(2i/C))";
        case Positional::learned: return "Learned position embeddings: PE(pos) = P[pos], a trained table (max_len, C)";
        case Positional::rotary:
            return nope_layers().empty()
                       ? "Rotary position embeddings (RoPE): nothing is added to the input. Inside every attention, "
                         "each pair (x[i], x[i + D/2]) of q and k turns by p·θ_i, where p is the token's position."
                       : "Rotary position embeddings (RoPE) with NoPE layers: nothing is added to the input. Inside "
                         "the attention of every layer but its NoPE layers (%s), each pair (x[i], x[i + D/2]) of q "
                         "and k turns by p·θ_i, where p is the token's position; a NoPE layer turns nothing and "
                         "sees no position at all.";
        case Positional::alibi:
            return "ALiBi (attention with linear biases): nothing is added to the input. Each head adds a fixed "
                   "penalty to its scores, bias[h, i, j] = −m_h·(i − j), with one slope m_h per head: the farther "
                   "back a key, the lower its score. Nothing is learned. All schemes side by side draws each "
                   "head's bias.";
        case Positional::relative_buckets:
            return "T5's relative position buckets: nothing is added to the input. Each head adds a learned bias "
                   "to its scores, bias[h, i, j] = table[bucket(j − i), h]: near offsets have buckets of their "
                   "own, far ones share log-spaced buckets. The first layer of each stack learns the table and "
                   "every layer reuses it. All schemes side by side draws the bucket map and each head's bias.";
        case Positional::none:
            return "This model has no positional encoding: its input is the token embedding alone, so attention by "
                   "itself cannot tell word order.";
    }
    return "";
}

std::string PositionMechanism::nope_layers() const {
    std::string layers;
    if (scheme_ != Positional::rotary) return layers;
    for (size_t layer = 0; layer < layer_ropes_.size(); ++layer)
        if (!layer_ropes_[layer]) layers += (layers.empty() ? "" : ", ") + std::to_string(layer);
    return layers;
}

std::string PositionMechanism::describe() const {
    std::string s = to_string(scheme_) + " positions";
    if (scheme_ == Positional::sinusoidal && layout_ == SinusoidLayout::halves) s += " (sines, then cosines)";
    if (scheme_ == Positional::rotary) {
        char rope[96];
        std::snprintf(rope, sizeof rope, " (θ %g%s", static_cast<double>(rope_.theta),
                      rope_.scaling == RopeScaling::none ? ")" : ", ");
        s += rope;
        if (rope_.scaling != RopeScaling::none) {
            std::snprintf(rope, sizeof rope, "%s ×%g)", to_string(rope_.scaling).c_str(),
                          static_cast<double>(rope_.factor));
            s += rope;
        }
    }
    return s;
}

}  // namespace attnlab
