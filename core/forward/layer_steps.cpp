// Residual sublayers (post-LN or pre-LN), the FFN, whole layers, stack outputs and the output head.
#include "forward/graph_builder.h"
#include "forward/linear_map.h"
#include "forward/mechanisms/layer_variants.h"
#include "ops/softmax.h"

#include <cassert>
#include <cstdio>

namespace attnlab {

namespace {

// Gemma's norm of sublayer k's output (LayerParams::post_norms), or none.
const NormParams* post_norm_of(const LayerParams& params, int k) {
    return params.post_norms.empty() ? nullptr : &params.post_norms.at(static_cast<size_t>(k - 1));
}

}  // namespace

StepId GraphBuilder::residual_sublayer(Stack stack, int layer, int k, const StepId& x, const NormParams& norm_params,
                                       const SublayerFn& sublayer, const NormParams* post_norm) {
    const std::string n = std::to_string(k);
    const StepId residual = StepId::sublayer_at(StepKind::residual, stack, layer, k);
    const StepId norm = StepId::sublayer_at(StepKind::norm, stack, layer, k);
    auto add_residual = [&](const StepId& sublayer_out) {  // x + Sublayer(…), or x + m·Sublayer(…) (Granite's)
        return add(multipliers_.residual_step(residual, "Residual add " + n, norm_.branch_formula_at(layer, k), x,
                                                     sublayer_out));
    };
    if (norm_.before_sublayer() && post_norm) {  // Gemma's x + N'(Sublayer(N(x)))
        const StepId out = sublayer(add(norm_.step(norm, norm_.sublayer_title(k), x, norm_params)));
        const StepId post = StepId::sublayer_at(StepKind::post_norm, stack, layer, k);
        return add_residual(dropped_out(add(norm_.step(post, norm_.post_sublayer_title(k), out, *post_norm))));
    }
    if (norm_.before_sublayer())  // x + Sublayer(N(x))
        return add_residual(dropped_out(sublayer(add(norm_.step(norm, norm_.sublayer_title(k), x, norm_params)))));
    const StepId sum = add_residual(dropped_out(sublayer(x)));  // N(x + Sublayer(x))
    return add(norm_.step(norm, norm_.sublayer_title(k), sum, norm_params));
}

StepId GraphBuilder::feed_forward(Stack stack, int layer, const LayerParams& params, const StepId& input) {
    StepId last = input;
    for (PlacedStep& placed : feed_forward_.steps(stack, layer, params, input)) last = add(std::move(placed));
    return last;  // ffn.out (N, C)
}

StepId GraphBuilder::self_block(AttentionUse use, int layer, const LayerParams& params, const StepId& input,
                                const StepId& mask) {
    const Stack stack = stack_of(use);
    const StepId layer_mask = has_local_and_global_layers(config_) ? mask_of_site(config_, {use, layer}) : mask;
    StepId x = residual_sublayer(
        stack, layer, 1, input, params.norms.at(0),
        [&](const StepId& in) { return attention({use, layer}, params.self_attn, in, in, layer_mask); },
        post_norm_of(params, 1));
    return residual_sublayer(
        stack, layer, 2, x, params.norms.at(1),
        [&](const StepId& in) { return feed_forward(stack, layer, params, in); }, post_norm_of(params, 2));
}

StepId GraphBuilder::cross_block(int layer, const LayerParams& params, const StepId& input, const StepId& memory,
                                 const StepId& self_mask, const StepId& cross_mask) {
    assert(params.cross_attn && params.norms.size() == 3);
    const Stack stack = Stack::decoder;
    const AttentionSite self{AttentionUse::decoder_self, layer};
    const StepId layer_mask = has_local_and_global_layers(config_) ? mask_of_site(config_, self) : self_mask;
    StepId x = residual_sublayer(stack, layer, 1, input, params.norms[0], [&](const StepId& in) {
        return attention(self, params.self_attn, in, in, layer_mask);
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
        return add(norm_.step(id, std::string("Final ") + norm_.name() + " of the " + name, input, *params));
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

namespace {

// The unembedding's logits times the config's constant s (ModelConfig::logit_scale: T5's tied d_model^−½, applied
// to the decoder output before the shared table, which is the same for a map without a bias; Granite's
// 1/logits_scaling). Its backward: dL/dlogits·s into the map's own.
Step scaled_logits(Step step, float s) {
    char part[48];
    std::snprintf(part, sizeof part, "logit_scale=%.9g", static_cast<double>(s));
    step.variant += step.variant.empty() ? part : std::string(" ") + part;
    auto times = [s](Tensor t) {
        for (float& x : t.data) x *= s;
        return t;
    };
    step.compute = [compute = std::move(step.compute), times](const StepContext& ctx) {
        StepOutput out = compute(ctx);
        out.value = times(std::move(out.value));
        out.non_finite.reset();  // counted before the scale
        return out;
    };
    step.backward = [backward = std::move(step.backward), times](const BackwardContext& b) {
        const Tensor d = times(b.d_output);
        return backward({b.config, b.weights, b.inputs, b.input, b.output, d, b.params});
    };
    return step;
}

}  // namespace

void GraphBuilder::output_head(const StepId& input) {
    if (config_.output_head == OutputHead::none) return;
    const HeadParams head = head_params(config_);
    auto id = [this](StepKind kind) { return StepId::head(kind, config_); };
    StepId x = input;
    if (head.transform) {  // BERT's MLM head: LN(act(x·W_tᵀ + b_t)) before the unembedding
        const StepId t =
            add(id(StepKind::head_transform),
                linear_map_step("Head transform", "t = " + linear_map_formula(*head.transform, "x", "W_t", "b_t"), x,
                                *head.transform));
        const StepId a =
            add(id(StepKind::head_activation),
                activation_step(config_.activation, "Head activation (" + to_string(config_.activation) + ")", t));
        x = add(norm_.step(id(StepKind::head_norm), std::string("Head ") + norm_.name(), a, *head.transform_norm));
    }
    const bool tied = config_.tie_embeddings;
    const std::string formula = "logits = " + linear_map_formula(head.unembed, "x", tied ? "E" : "W_gen", "b") +
                                (config_.logit_scale != 1.0f ? " · s" : "") +  // s: scaled_logits below
                                (tied ? "  (tied to the embedding)" : "");
    Step projection = linear_map_step("Output projection", formula, x, head.unembed);  // (N, V)
    if (config_.logit_scale != 1.0f) projection = scaled_logits(std::move(projection), config_.logit_scale);
    const StepId logits = add(id(StepKind::logits), std::move(projection));
    const StepId read = soft_cap_.caps_logits()  // Gemma 2: the softmax reads c·tanh(logits/c)
                            ? add(soft_cap_.logits_step(logits, id(StepKind::capped_logits)))
                            : logits;
    const bool masked = prediction_of(config_) == Prediction::masked_tokens;
    add(id(StepKind::probs), {masked ? "Masked-token probabilities" : "Next-token probabilities",
                              "p = softmax(logits)",
                              {read},
                              {},
                              {},
                              "",
                              [](const StepContext& ctx) {
                                  return StepOutput{softmax_rows(ctx.input(0)), {}};
                              }});
}

}  // namespace attnlab
