// The residual stream of one stack as the ids of its steps, and its flow diagram for one token.
#pragma once

#include "panels/panel_context.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

enum class SublayerKind { self_attn, cross_attn, ffn };

// Residual sublayer k of a layer: what it adds and the two steps around it.
struct ResidualSublayer {
    SublayerKind kind;
    StepId out;       // the attention's out stage, or the FFN's out   (N, C)
    StepId residual;  // x + Sublayer(…)                               (N, C)
    StepId norm;      // its LayerNorm                                 (N, C)
};

struct ResidualStack {
    bool decoder = false;
    StepId input, output;                               // the embeddings' sum, the stack's output  (N, C)
    std::vector<std::vector<ResidualSublayer>> layers;  // [layer][sublayer]
};

ResidualStack residual_stack(const ModelConfig& config, bool decoder);

// ‖x[token]‖₂ of a step's (N, C) output, or nothing when it has not run.
std::optional<float> row_norm(const Stepper& stepper, const StepId& id, int token);

// x → (+sublayer → norm)… for one token, in the order config.norm_first sets, one row per layer.
void draw_residual_flow(PanelContext& ctx, const ResidualStack& stack, int token);

}  // namespace attnlab::gui
