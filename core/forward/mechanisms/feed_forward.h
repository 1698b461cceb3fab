// The feed-forward mechanism (ModelConfig::gated_ffn, activation): act(x·W_1ᵀ)·W_2ᵀ, or gated (SwiGLU with silu):
// (act(x·W_gateᵀ) ⊙ x·W_upᵀ)·W_downᵀ, biases where the family has them. The one reader of gated_ffn. A gated FFN's
// gate and up maps may be the two halves of one packed weight (ModernBERT's Wi (2F, C): the first F rows are
// activated, the last F multiply them), which its formulas and explanation kinds name.
#pragma once

#include "forward/mechanisms/mechanism.h"
#include "forward/mechanisms/mixture_of_experts.h"
#include "ops/row_stats.h"
#include "param_names.h"

#include <string>

namespace attnlab {

class FeedForwardMechanism {
public:
    explicit FeedForwardMechanism(const ModelConfig& config)
        : gated_(config.gated_ffn),
          packed_(packs_gate_and_up(config)),
          activation_(config.activation),
          config_(config),
          experts_(config) {}

    bool gated() const { return gated_; }
    // Whether the gate and the up map are the halves of one weight, W_i (2F, C) (param_names.h).
    static bool packs_gate_and_up(const ModelConfig& config);
    std::string describe() const;  // "gelu FFN", "gated FFN (silu)"
    // The steps of one layer's FFN over its input (N, C), in order: ffn.hidden (N, F), ffn.activation (N, F),
    // ffn.out (N, C); gated: ffn.gate, ffn.activation, ffn.up, ffn.gated (N, F each), ffn.out; a mixture of
    // experts' layer (params.experts): ffn.router, ffn.routing, ffn.out (mixture_of_experts.h). The last is ffn.out.
    std::vector<PlacedStep> steps(Stack stack, int layer, const LayerParams& params, const StepId& input) const;

    // The explanation kind of a part of a layer's FFN: "ffn.hidden", "ffn.gelu", "ffn.down", "ffn.router", …
    // (layer −1: a layer with experts when the model has them).
    std::string kind(FfnPart part, int layer = -1) const;
    const char* bias_symbol(
        FfnPart part) const;  // as its formulas name the part's bias: b_1, b_gate, b_up, b_down, b_2
    // Numbers of h = a ⊙ u for one row: the column where |h| is largest ("col") with its "a", "u" and "h", and the
    // share of the row's gate entries under 0.1 in size ("shut_pct", a fraction).
    ExplainNumbers gate_numbers(RowRef a, RowRef u, RowRef h) const;

private:
    bool gated_;
    bool packed_;
    Activation activation_;
    const ModelConfig& config_;
    MixtureOfExpertsMechanism experts_;
};

// The step a = act(h) of an activation over its one input (N, F) -> (N, F), with its backward: the FFN's, and the
// activation of BERT's MLM head.
Step activation_step(Activation activation, std::string title, const StepId& input);

}  // namespace attnlab
