// The score-bias mechanism (ModelConfig::positional alibi, relative_buckets): schemes that give attention
// positions by adding a bias to every head's scores rather than anything to the embeddings or to Q and K.
//   alibi             BLOOM's: bias[h, i, j] = −m_h·(i − j), a fixed penalty growing with the distance back to the
//                     key, one slope m_h per head (ops/alibi.h), no parameter.
//   relative_buckets  T5's: a learned (buckets, H) table read at the bucket of each offset j − i, shared by every
//                     layer of a stack (relative_bias.h, ops/relative_buckets.h).
// The interface the graph builder uses:
//   - bias_step: one step per stack, StepKind::position_bias, "encoder.position_bias" / "decoder.position_bias",
//     (H, N, N): the bias of every head, query i and key j. It reads the stack's ids (for N) and, for a learned
//     scheme, its table parameter; its compute and backward come from the scheme's case below (ALiBi's has no
//     backward: nothing in it is learned).
//   - biased_step: the stage AttentionStage::biased of each self-attention that biases(use), between scaled and
//     masked: biased[b·H + h] = scaled[b·H + h] + bias[h]. Its backward passes dL/dbiased to scaled unchanged and,
//     when learned(), sums it over the batch into dL/dbias (H, N, N) for the bias step's backward.
// The bias step's rows are its queries (axis 1, as the score stages'): a row re-run reads its rows [first, N).
#pragma once

#include "forward/mechanisms/mechanism.h"

#include <string>
#include <vector>

namespace attnlab {

class ScoreBiasMechanism {
public:
    explicit ScoreBiasMechanism(const ModelConfig& config);

    bool on() const { return scheme_ == Positional::alibi || scheme_ == Positional::relative_buckets; }
    // The bias step reads a parameter, so the biased stages send it a gradient.
    bool learned() const { return scheme_ == Positional::relative_buckets; }
    // Whether an attention of `use` adds its stack's bias: the self-attentions (T5's cross-attention has none).
    bool biases(AttentionUse use) const { return on() && use != AttentionUse::cross; }

    // The stack's bias (H, N, N), N read off the ids `ids_control` names. `table`: the learned scheme's parameter
    // ("" for alibi).
    PlacedStep bias_step(Stack stack, const std::string& table, Control ids_control) const;
    // scaled (B·H, Tq, Tk) + bias[h] (H, Tq, Tk) of one attention -> biased (B·H, Tq, Tk).
    PlacedStep biased_step(const AttentionSite& site, const StepId& scaled, const StepId& bias) const;

    const std::vector<float>& slopes() const { return slopes_; }  // alibi: m_h (H,); empty otherwise

    // Explanation kinds: the bias step's ("position_bias.alibi"), the biased stage's ("attn.biased"), and their
    // backward's ("position_bias", "biased").
    const char* bias_kind() const;
    static const char* biased_kind() { return "attn.biased"; }
    static const char* bias_backward_kind() { return "position_bias"; }
    static const char* biased_backward_kind() { return "biased"; }
    // Numbers of the bias (H, N, N) at head h, query i, key j: "bias", "distance" (i − j), and alibi's "slope".
    ExplainNumbers bias_numbers(const Tensor& bias, int h, int64_t i, int64_t j) const;
    // "ALiBi slopes 0.25, 0.0625, … (6 heads)", "relative position buckets"; "" when off.
    std::string describe() const;

private:
    Positional scheme_;
    std::vector<float> slopes_;
    int relative_buckets_, relative_max_distance_;  // relative_buckets: B and the distance the buckets reach
};

}  // namespace attnlab
