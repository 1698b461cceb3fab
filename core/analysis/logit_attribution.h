// Direct logit attribution: the metric (attribution_metric.h) at one position, split exactly into the share of
// every component that writes into the residual stream of the stack the output head reads:
//   the embeddings (the stack's input row), each head at each source position (w[h,q,j]·V[g(h),j]·W_O[:, h]ᵀ),
//   each attention's output bias, each FFN (its output row, its second bias included), the β of every norm on
//   the stream, and the unembedding's bias.
// Every norm on the stream (post-norm sublayers' norms, the final norm) is frozen at this run's scale and so is
// linear: LayerNorm c ↦ (c − mean(c))/σ ⊙ γ, σ = √(var(x) + ε) of the run's row x, its β a component of its own;
// RMSNorm c ↦ c/rms(x) ⊙ γ. Each component's vector (C,) goes through those, then through the unembedding row of
// A (minus that of B for logit-diff). The shares sum to the metric up to rounding (computed in double). They are
// computed by pulling the unembedding direction back through the frozen maps (logit_attribution.cpp): memory O(C)
// beyond the result, whatever the number of heads and positions.
// BERT's MLM head (transform, activation, LayerNorm) is frozen the same way: the activation as the diagonal scale
// act(t)/t of this run's t (act'(0) where t = 0), the head's LayerNorm at this run's σ; the transform's bias and
// that norm's β are components. BERT's stream starts at the embeddings' LayerNorm: "the embeddings" is its row.
// Not supported (one-line error): a batch of sequences.
#pragma once

#include "analysis/attribution_metric.h"
#include "result.h"
#include "stepper.h"

#include <string>
#include <vector>

namespace attnlab {

enum class ComponentKind { embedding, head, attention_bias, ffn, norm_bias, head_transform_bias, unembedding_bias };
const char* to_string(ComponentKind kind);  // "embedding", "head", "attention_bias", "ffn", "norm_bias", ...

struct AttributionComponent {
    ComponentKind kind = ComponentKind::embedding;
    std::string name;  // e.g. "decoder.layers.1.cross_attn.head2@3", "decoder.layers.0.ffn", "decoder.norm2"
    Stack stack = Stack::decoder;
    int layer = -1;   // -1: not in a layer (embeddings, final norm, unembedding)
    int head = -1;    // head components only
    int source = -1;  // head components: the key (source) position j the share comes through
    AttentionUse use = AttentionUse::decoder_self;  // head and attention_bias components
    double value = 0.0;                             // the share of the metric
};

struct LogitAttribution {
    AttributionMetric metric;
    double total = 0.0;                            // Σ value over the components
    double metric_value = 0.0;                     // the metric read off the stepper's logits
    std::vector<AttributionComponent> components;  // in the order they write into the stream
};

// For a stepper that has run its logits. Errors: the model has no output head, the logits have not been
// computed, the position or a token id is out of range, a batch of several sequences.
Result<LogitAttribution> attribute_logits(const Stepper& stepper, const AttributionMetric& metric);

}  // namespace attnlab
