// The residual stream of one stack as trace paths, and its flow diagram for one token.
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
    std::string out;       // …self_attn.out | …cross_attn.out | …ffn.out   (N, C)
    std::string residual;  // …residual{k}                                    (N, C)
    std::string norm;      // …norm{k}                                        (N, C)
};

struct ResidualStack {
    bool decoder = false;
    std::string input, output;                          // src|tgt.input, encoder|decoder.output  (N, C)
    std::vector<std::vector<ResidualSublayer>> layers;  // [layer][sublayer]
};

ResidualStack residual_stack(const ModelConfig& config, bool decoder);

// ‖x[token]‖₂ of a step's (N, C) output, or nothing when it has not run.
std::optional<float> row_norm(const Stepper& stepper, const std::string& path, int token);

// x → (+sublayer → norm)… for one token, in the order config.norm_first sets, one row per layer.
void draw_residual_flow(PanelContext& ctx, const ResidualStack& stack, int token);

}  // namespace attnlab::gui
