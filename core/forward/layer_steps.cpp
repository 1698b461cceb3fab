// Residual sublayers (post-LN or pre-LN), the FFN, whole layers, stack outputs and the output head.
#include "forward/graph_builder.h"
#include "forward/linear_map.h"
#include "forward/norm_map.h"
#include "ops/activation.h"
#include "ops/elementwise.h"
#include "ops/softmax.h"

#include <cassert>
#include <cstdio>

namespace attnlab {

namespace {

// dL/dh = dL/da ⊙ act'(h), h the activation's input.
InputGrads activation_step_backward(const BackwardContext& b) {
    return InputGrads{activation_backward(b.input(0), b.d_output, b.config.activation)};
}

}  // namespace

std::string eps_variant(float eps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "eps=%.9g", static_cast<double>(eps));
    return buf;
}

std::string GraphBuilder::norm_name() const { return config_.norm == NormKind::rms_norm ? "RMSNorm" : "LayerNorm"; }

StepId GraphBuilder::norm(const StepId& id, const std::string& title, const StepId& input, const NormParams& params) {
    const bool rms = config_.norm == NormKind::rms_norm;
    return add(id,
               {title,
                rms ? "RMSNorm(x) = x / √(mean(x²) + ε) · γ" : "LN(x) = (x − mean) / √(var + ε) · γ + β",
                {input},
                rms ? std::vector<std::string>{params.weight} : std::vector<std::string>{params.weight, params.bias},
                {},
                eps_variant(config_.layer_norm_eps),
                [params](const StepContext& ctx) {
                    return StepOutput{norm_forward(ctx.config, ctx.weights, params, ctx.input(0)), {}};
                },
                [params](const BackwardContext& b) {
                    return InputGrads{norm_backward(b.config, b.weights, params, b.input(0), b.d_output, b.params)};
                }});
}

StepId GraphBuilder::linear(const StepId& id, const std::string& title, const std::string& formula, const StepId& input,
                            const LinearParams& map) {
    return add(id, {title,
                    formula,
                    {input},
                    linear_map_param_names(map),
                    {},
                    "",
                    [map](const StepContext& ctx) {
                        CountedOutput y = linear_map_forward_counted(ctx.weights, map, ctx.input(0));
                        return StepOutput{std::move(y.value), {}, y.non_finite};
                    },
                    [map](const BackwardContext& b) {
                        return InputGrads{linear_map_backward(b.weights, map, b.input(0), b.d_output, b.params)};
                    }});
}

StepId GraphBuilder::residual_sublayer(Stack stack, int layer, int k, const StepId& x, const NormParams& norm_params,
                                       const SublayerFn& sublayer) {
    const std::string n = std::to_string(k);
    const StepId residual = StepId::sublayer_at(StepKind::residual, stack, layer, k);
    const StepId norm = StepId::sublayer_at(StepKind::norm, stack, layer, k);
    auto add_residual = [&](const StepId& sublayer_out, const char* formula) {
        return add(residual, {"Residual add " + n,
                              formula,
                              {x, sublayer_out},
                              {},
                              {},
                              "",
                              [](const StepContext& ctx) {
                                  int64_t non_finite = 0;
                                  Tensor y = elementwise_sum(ctx.input(0), ctx.input(1), non_finite);
                                  return StepOutput{std::move(y), {}, non_finite};
                              },
                              [](const BackwardContext& b) {
                                  return InputGrads{b.d_output, b.d_output};
                              }});
    };
    const bool rms = config_.norm == NormKind::rms_norm;
    if (config_.norm_first)  // x + Sublayer(LN(x)), or x + Sublayer(RMSNorm(x))
        return add_residual(dropped_out(sublayer(this->norm(
                                norm, norm_name() + " " + n + (rms ? " (pre-norm)" : " (pre-LN)"), x, norm_params))),
                            rms ? "x + Sublayer(RMSNorm(x))" : "x + Sublayer(LN(x))");
    const StepId sum = add_residual(dropped_out(sublayer(x)), "x + Sublayer(x)");  // LN(x + Sublayer(x))
    return this->norm(norm, norm_name() + " " + n + (rms ? " (post-norm)" : " (post-LN)"), sum, norm_params);
}

StepId GraphBuilder::feed_forward(Stack stack, int layer, const LayerParams& params, const StepId& input) {
    auto part = [&](FfnPart p) { return StepId::ffn_at(stack, layer, p); };
    auto activation = [&](const StepId& of) {
        return add(part(FfnPart::activation),
                   {"FFN activation (" + to_string(config_.activation) + ")",
                    activation_formula(config_.activation),
                    {of},
                    {},
                    {},
                    "",
                    [](const StepContext& ctx) {
                        return StepOutput{activation_forward(ctx.input(0), ctx.config.activation), {}};
                    },
                    activation_step_backward});
    };
    if (!params.ffn_gate) {
        const StepId hidden = linear(part(FfnPart::hidden), "FFN first linear",
                                     "h = " + linear_map_formula(params.ffn_in, "x", "W_1", "b_1"), input,
                                     params.ffn_in);  // (N, F)
        return linear(part(FfnPart::out), "FFN second linear",
                      "FFN(x) = " + linear_map_formula(params.ffn_out, "a", "W_2", "b_2"), activation(hidden),
                      params.ffn_out);  // (N, C)
    }
    // SwiGLU: the activated gate scales the up projection entry by entry.
    const StepId gate = linear(part(FfnPart::gate), "FFN gate",
                               "g = " + linear_map_formula(*params.ffn_gate, "x", "W_gate", "b_gate"), input,
                               *params.ffn_gate);  // (N, F)
    const StepId activated = activation(gate);
    const StepId up = linear(part(FfnPart::up), "FFN up projection",
                             "u = " + linear_map_formula(params.ffn_in, "x", "W_up", "b_up"), input,
                             params.ffn_in);  // (N, F)
    const StepId gated =
        add(part(FfnPart::gated), {"Gate × up",
                                   "h = a ⊙ u",
                                   {activated, up},
                                   {},
                                   {},
                                   "",
                                   [](const StepContext& ctx) {
                                       Tensor h = own_first_input(ctx);  // (N, F): a's array, on demand
                                       int64_t non_finite = 0;
                                       multiply_in_place(h, ctx.input(1), non_finite);
                                       return StepOutput{std::move(h), {}, non_finite};
                                   },
                                   [](const BackwardContext& b) {  // dL/da = dh ⊙ u, dL/du = dh ⊙ a
                                       Tensor da(b.d_output.shape), du(b.d_output.shape);  // (N, F)
                                       da.matrix() = b.d_output.matrix().cwiseProduct(b.input(1).matrix());
                                       du.matrix() = b.d_output.matrix().cwiseProduct(b.input(0).matrix());
                                       return InputGrads{std::move(da), std::move(du)};
                                   }});
    return linear(part(FfnPart::out), "FFN down projection",
                  "FFN(x) = " + linear_map_formula(params.ffn_out, "h", "W_down", "b_down"), gated,
                  params.ffn_out);  // (N, C)
}

StepId GraphBuilder::self_block(AttentionUse use, int layer, const LayerParams& params, const StepId& input,
                                const StepId& mask) {
    const Stack stack = stack_of(use);
    StepId x = residual_sublayer(stack, layer, 1, input, params.norms.at(0), [&](const StepId& in) {
        return attention({use, layer}, params.self_attn, in, in, mask);
    });
    return residual_sublayer(stack, layer, 2, x, params.norms.at(1),
                             [&](const StepId& in) { return feed_forward(stack, layer, params, in); });
}

StepId GraphBuilder::cross_block(int layer, const LayerParams& params, const StepId& input, const StepId& memory,
                                 const StepId& self_mask, const StepId& cross_mask) {
    assert(params.cross_attn && params.norms.size() == 3);
    const Stack stack = Stack::decoder;
    StepId x = residual_sublayer(stack, layer, 1, input, params.norms[0], [&](const StepId& in) {
        return attention({AttentionUse::decoder_self, layer}, params.self_attn, in, in, self_mask);
    });
    x = residual_sublayer(stack, layer, 2, x, params.norms[1], [&](const StepId& in) {
        return attention({AttentionUse::cross, layer}, *params.cross_attn, in, memory, cross_mask);
    });
    return residual_sublayer(stack, layer, 3, x, params.norms[2],
                             [&](const StepId& in) { return feed_forward(stack, layer, params, in); });
}

StepId GraphBuilder::stack_output(Stack stack, const StepId& input) {
    const std::string name = stack == Stack::encoder ? "encoder" : "decoder";
    const StepId id = StepId::of(StepKind::stack_output, stack);
    if (const auto params = final_norm_params(config_, stack))
        return norm(id, "Final " + norm_name() + " of the " + name, input, *params);
    return add(id, {"Output of the " + name,
                    "the last layer's output",
                    {input},
                    {},
                    {},
                    "",
                    [](const StepContext& ctx) {
                        return StepOutput{ctx.input(0), {}};
                    },
                    [](const BackwardContext& b) { return InputGrads{b.d_output}; }});
}

void GraphBuilder::output_head(const StepId& input) {
    if (config_.output_head == OutputHead::none) return;
    const HeadParams head = head_params(config_);
    auto id = [this](StepKind kind) { return StepId::head(kind, config_); };
    StepId x = input;
    if (head.transform) {  // BERT's MLM head: LN(act(x·W_tᵀ + b_t)) before the unembedding
        const StepId t = linear(id(StepKind::head_transform), "Head transform",
                                "t = " + linear_map_formula(*head.transform, "x", "W_t", "b_t"), x, *head.transform);
        const StepId a = add(id(StepKind::head_activation),
                             {"Head activation (" + to_string(config_.activation) + ")",
                              activation_formula(config_.activation),
                              {t},
                              {},
                              {},
                              "",
                              [](const StepContext& ctx) {
                                  return StepOutput{activation_forward(ctx.input(0), ctx.config.activation), {}};
                              },
                              activation_step_backward});
        x = norm(id(StepKind::head_norm), "Head " + norm_name(), a, *head.transform_norm);
    }
    const bool tied = config_.tie_embeddings;
    const std::string formula = "logits = " + linear_map_formula(head.unembed, "x", tied ? "E" : "W_gen", "b") +
                                (tied ? "  (tied to the embedding)" : "");
    const StepId logits = linear(id(StepKind::logits), "Output projection", formula, x, head.unembed);  // (N, V)
    const bool masked = prediction_of(config_) == Prediction::masked_tokens;
    add(id(StepKind::probs), {masked ? "Masked-token probabilities" : "Next-token probabilities",
                              "p = softmax(logits)",
                              {logits},
                              {},
                              {},
                              "",
                              [](const StepContext& ctx) {
                                  return StepOutput{softmax_rows(ctx.input(0)), {}};
                              }});
}

}  // namespace attnlab
