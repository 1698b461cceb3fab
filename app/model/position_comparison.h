// The Positional view's comparison of the schemes (core/analysis/position_schemes.h) on the open model's
// sentence: one picture per scheme, each from the open model's own weights or settings where it has them
// (its learned table, its RoPE frequencies, its buckets) and from the scheme's usual defaults otherwise (θ = 10000
// over the model's head size, T5's 32 buckets up to 128, ALiBi's slopes
// for the model's number of heads); beside them the attention the open model actually
// produces, in one chosen layer and head of its first stack's self-attention. No drawing here:
// panels/pe_compare.cpp draws it.
#pragma once

#include "analysis/position_schemes.h"
#include "stepper.h"

#include <vector>

namespace attnlab::gui {

struct PositionComparison {
    int n_positions = 0;              // N: the first stack's sentence
    std::vector<SchemePanel> panels;  // sinusoid, learned (a model with a table), RoPE, NoPE, T5 buckets, ALiBi
    int own_panel = -1;               // the panel of the scheme the open model (and the chosen layer) uses; −1: none
};

// The self-attention beside the schemes: the first stack's (the encoder's when there is one).
AttentionUse comparison_attention_use(const ModelConfig& config);
int comparison_layers(const ModelConfig& config);  // how many layers that stack has

// The panels for N positions of a model with this config and these weights. `layer`: the chosen layer, whose
// own scheme is marked (a NoPE layer of a rotary model is NoPE's). `traced_bias`: a T5's position_bias step of that
// stack, (H, N, N), once its run has it: each head's learned bias joins the panels, as the model's own.
PositionComparison position_comparison(const ModelConfig& config, const Weights& weights, int n_positions, int layer,
                                       const Tensor* traced_bias = nullptr);

// The open model's attention weights at (layer, head) of comparison_attention_use, each clamped to the model's;
// the entry is null until the stepper has run that attention.
struct ModelAttentionPick {
    AttentionSite site;
    int head = 0;
    const TraceEntry* entry = nullptr;  // the weights step (H, N, N), owned by the stepper
};
ModelAttentionPick model_attention(const Stepper& stepper, int layer, int head);

}  // namespace attnlab::gui
