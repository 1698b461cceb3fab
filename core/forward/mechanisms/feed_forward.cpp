#include "forward/mechanisms/feed_forward.h"

#include "forward/linear_map.h"
#include "ops/activation.h"
#include "ops/elementwise.h"

#include <cassert>
#include <cmath>

namespace attnlab {

Step activation_step(Activation activation, std::string title, const StepId& input) {
    return {std::move(title),
            activation_formula(activation),
            {input},
            {},
            {},
            "",
            [activation](const StepContext& ctx) {
                return StepOutput{activation_forward(ctx.input(0), activation), {}};
            },
            [activation](const BackwardContext& b) {  // dL/dh = dL/da ⊙ act'(h)
                return InputGrads{activation_backward(b.input(0), b.d_output, activation)};
            }};
}

bool FeedForwardMechanism::packs_gate_and_up(const ModelConfig& config) {
    if (!config.gated_ffn || config.n_experts > 0) return false;
    const LayerParams layer = layer_params(config, last_stack(config), 0);
    return layer.ffn_gate && layer.ffn_gate->weight == layer.ffn_in.weight;
}

std::string FeedForwardMechanism::describe() const {
    if (config_.n_experts > 0) return experts_.describe();
    return gated_ ? "gated FFN (" + to_string(activation_) + ")" : to_string(activation_) + " FFN";
}

std::vector<PlacedStep> FeedForwardMechanism::steps(Stack stack, int layer, const LayerParams& params,
                                                    const StepId& input) const {
    if (params.experts) return experts_.steps(stack, layer, *params.experts, input);
    auto part = [&](FfnPart p) { return StepId::ffn_at(stack, layer, p); };
    auto activation = [&](const StepId& of) -> PlacedStep {
        return {part(FfnPart::activation),
                activation_step(activation_, "FFN activation (" + to_string(activation_) + ")", of)};
    };
    if (!gated_) {
        return {
            {part(FfnPart::hidden),
             linear_map_step("FFN first linear", "h = " + linear_map_formula(params.ffn_in, "x", "W_1", "b_1"), input,
                             params.ffn_in)},  // (N, F)
            activation(part(FfnPart::hidden)),
            {part(FfnPart::out),
             linear_map_step("FFN second linear", "FFN(x) = " + linear_map_formula(params.ffn_out, "a", "W_2", "b_2"),
                             part(FfnPart::activation), params.ffn_out)}};  // (N, C)
    }
    assert(params.ffn_gate && "a gated FFN has a gate map");
    // SwiGLU: the activated gate scales the up projection entry by entry.
    Step gate_times_up = {"Gate × up",
                          "h = a ⊙ u",
                          {part(FfnPart::activation), part(FfnPart::up)},
                          {},
                          {},
                          "",
                          [](const StepContext& ctx) {
                              Tensor h = own_first_input(ctx);  // (N, F): a's array, on demand
                              int64_t non_finite = 0;
                              multiply_in_place(h, ctx.input(1), non_finite);
                              return StepOutput{std::move(h), {}, non_finite};
                          },
                          [](const BackwardContext& b) {                          // dL/da = dh ⊙ u, dL/du = dh ⊙ a
                              Tensor da(b.d_output.shape), du(b.d_output.shape);  // (N, F)
                              da.matrix() = b.d_output.matrix().cwiseProduct(b.input(1).matrix());
                              du.matrix() = b.d_output.matrix().cwiseProduct(b.input(0).matrix());
                              return InputGrads{std::move(da), std::move(du)};
                          }};
    // ModernBERT's Wi: input, gate = Wi(x).chunk(2); out = Wo(act(input) ⊙ gate), so its first half is our gate.
    const std::string gate_rows = packed_ ? "  (W_gate = rows 0…F−1 of W_i)" : "";
    const std::string up_rows = packed_ ? "  (W_up = rows F…2F−1 of W_i)" : "";
    return {
        {part(FfnPart::gate),
         linear_map_step("FFN gate",
                         "g = " + linear_map_formula(*params.ffn_gate, "x", "W_gate", "b_gate") + gate_rows, input,
                         *params.ffn_gate)},  // (N, F)
        activation(part(FfnPart::gate)),
        {part(FfnPart::up),
         linear_map_step("FFN up projection",
                         "u = " + linear_map_formula(params.ffn_in, "x", "W_up", "b_up") + up_rows, input,
                         params.ffn_in)},  // (N, F)
        {part(FfnPart::gated), std::move(gate_times_up)},
        {part(FfnPart::out), linear_map_step("FFN down projection",
                                             "FFN(x) = " + linear_map_formula(params.ffn_out, "h", "W_down", "b_down"),
                                             part(FfnPart::gated), params.ffn_out)}};  // (N, C)
}

std::string FeedForwardMechanism::kind(FfnPart part, int layer) const {
    if (has_experts(config_, layer)) return experts_.kind(part);
    switch (part) {
        case FfnPart::hidden: return "ffn.hidden";
        case FfnPart::gate: return packed_ ? "ffn.gate_packed" : "ffn.gate";
        case FfnPart::activation: return "ffn." + to_string(activation_);  // ffn.relu, ffn.gelu_tanh, …
        case FfnPart::up: return packed_ ? "ffn.up_packed" : "ffn.up";
        case FfnPart::gated: return "ffn.gated";
        case FfnPart::out: return gated_ ? "ffn.down" : "ffn.out";
        case FfnPart::router:
        case FfnPart::routing: break;
    }
    assert(false && "every FFN part has a kind");
    return "";
}

const char* FeedForwardMechanism::bias_symbol(FfnPart part) const {
    switch (part) {
        case FfnPart::hidden: return "b_1";
        case FfnPart::gate: return "b_gate";
        case FfnPart::up: return "b_up";
        default: return gated_ ? "b_down" : "b_2";
    }
}

ExplainNumbers FeedForwardMechanism::gate_numbers(RowRef a, RowRef u, RowRef h) const {
    Eigen::Index largest = 0;
    h.cwiseAbs().maxCoeff(&largest);
    int64_t shut = 0;  // entries the gate scales by less than 0.1 in size
    for (Eigen::Index c = 0; c < a.size(); ++c) shut += std::abs(a(c)) < 0.1f;
    return {{"col", static_cast<double>(largest), ShownAs::whole},
            {"a", a(largest)},
            {"u", u(largest)},
            {"h", h(largest)},
            {"shut_pct", a.size() ? static_cast<double>(shut) / static_cast<double>(a.size()) : 0.0, ShownAs::percent}};
}

}  // namespace attnlab
