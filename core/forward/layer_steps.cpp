// Residual sublayers (post-LN or pre-LN), the FFN, whole layers, stack outputs and the output head.
#include "forward/graph_builder.h"
#include "forward/linear_map.h"
#include "ops/activation.h"
#include "ops/layer_norm.h"
#include "ops/softmax.h"

#include <cassert>
#include <cstdio>

namespace attnlab {

namespace {

std::string eps_variant(float eps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "eps=%.9g", static_cast<double>(eps));
    return buf;
}

}  // namespace

std::string GraphBuilder::layer_norm(const std::string& path, const std::string& title, const std::string& input,
                                     const NormParams& params) {
    const std::string g = params.weight, b = params.bias;
    add({path, title, "LN(x) = (x − mean) / √(var + ε) · γ + β", {input}, {g, b}, {}, eps_variant(config_.layer_norm_eps),
         [g, b](const StepContext& ctx) {
             return StepOutput{layer_norm_forward(ctx.input(0), ctx.param(g), ctx.param(b), ctx.config.layer_norm_eps), {}};
         }});
    return path;
}

std::string GraphBuilder::linear(const std::string& path, const std::string& title, const std::string& formula,
                                 const std::string& input, const LinearParams& map) {
    add({path, title, formula, {input}, linear_map_param_names(map), {}, "", [map](const StepContext& ctx) {
             return StepOutput{linear_map_forward(ctx.weights, map, ctx.input(0)), {}};
         }});
    return path;
}

std::string GraphBuilder::residual_sublayer(const std::string& layer, int k, const std::string& x,
                                            const NormParams& norm_params, const SublayerFn& sublayer) {
    const std::string n = std::to_string(k);
    const std::string residual = layer + ".residual" + n, norm = layer + ".norm" + n;
    auto add_residual = [&](const std::string& sublayer_out, const char* formula) {
        add({residual, "Residual add " + n, formula, {x, sublayer_out}, {}, {}, "", [](const StepContext& ctx) {
                 Tensor y(ctx.input(0).shape);
                 y.matrix() = ctx.input(0).matrix() + ctx.input(1).matrix();
                 return StepOutput{std::move(y), {}};
             }});
    };
    if (config_.norm_first) {  // x + Sublayer(LN(x))
        layer_norm(norm, "LayerNorm " + n + " (pre-LN)", x, norm_params);
        add_residual(sublayer(norm), "x + Sublayer(LN(x))");
        return residual;
    }
    add_residual(sublayer(x), "x + Sublayer(x)");  // LN(x + Sublayer(x))
    return layer_norm(norm, "LayerNorm " + n + " (post-LN)", residual, norm_params);
}

std::string GraphBuilder::feed_forward(const std::string& layer, const LayerParams& params, const std::string& input) {
    linear(layer + ".ffn.hidden", "FFN first linear", "h = " + linear_map_formula(params.ffn_in, "x", "W_1", "b_1"),
           input, params.ffn_in);  // (N, F)
    add({layer + ".ffn.activation", "FFN activation (" + to_string(config_.activation) + ")",
         activation_formula(config_.activation), {layer + ".ffn.hidden"}, {}, {}, "", [](const StepContext& ctx) {
             return StepOutput{activation_forward(ctx.input(0), ctx.config.activation), {}};
         }});
    return linear(layer + ".ffn.out", "FFN second linear",
                  "FFN(x) = " + linear_map_formula(params.ffn_out, "a", "W_2", "b_2"), layer + ".ffn.activation",
                  params.ffn_out);  // (N, C)
}

std::string GraphBuilder::self_block(const std::string& layer, const LayerParams& params, const std::string& input,
                                     const std::string& mask) {
    std::string x = residual_sublayer(layer, 1, input, params.norms.at(0), [&](const std::string& in) {
        return attention(layer + ".self_attn", params.self_attn, in, in, mask);
    });
    return residual_sublayer(layer, 2, x, params.norms.at(1),
                             [&](const std::string& in) { return feed_forward(layer, params, in); });
}

std::string GraphBuilder::cross_block(const std::string& layer, const LayerParams& params, const std::string& input,
                                      const std::string& memory, const std::string& self_mask,
                                      const std::string& cross_mask) {
    assert(params.cross_attn && params.norms.size() == 3);
    std::string x = residual_sublayer(layer, 1, input, params.norms[0], [&](const std::string& in) {
        return attention(layer + ".self_attn", params.self_attn, in, in, self_mask);
    });
    x = residual_sublayer(layer, 2, x, params.norms[1], [&](const std::string& in) {
        return attention(layer + ".cross_attn", *params.cross_attn, in, memory, cross_mask);
    });
    return residual_sublayer(layer, 3, x, params.norms[2],
                             [&](const std::string& in) { return feed_forward(layer, params, in); });
}

std::string GraphBuilder::stack_output(Stack stack, const std::string& input) {
    const std::string name = stack == Stack::encoder ? "encoder" : "decoder";
    const std::string path = name + ".output";
    if (const auto norm = final_norm_params(config_, stack))
        return layer_norm(path, "Final LayerNorm of the " + name, input, *norm);
    add({path, "Output of the " + name, "the last layer's output", {input}, {}, {}, "",
         [](const StepContext& ctx) { return StepOutput{ctx.input(0), {}}; }});
    return path;
}

void GraphBuilder::output_head(const std::string& input) {
    if (config_.output_head == OutputHead::none) return;
    const HeadParams head = head_params(config_);
    std::string x = input;
    if (head.transform) {  // BERT's MLM head: LN(act(x·W_tᵀ + b_t)) before the unembedding
        linear("head.transform", "Head transform", "t = " + linear_map_formula(*head.transform, "x", "W_t", "b_t"), x,
               *head.transform);
        add({"head.activation", "Head activation (" + to_string(config_.activation) + ")",
             activation_formula(config_.activation), {"head.transform"}, {}, {}, "", [](const StepContext& ctx) {
                 return StepOutput{activation_forward(ctx.input(0), ctx.config.activation), {}};
             }});
        x = layer_norm("head.norm", "Head LayerNorm", "head.activation", *head.transform_norm);
    }
    const bool tied = config_.tie_embeddings;
    const std::string formula = "logits = " + linear_map_formula(head.unembed, "x", tied ? "E" : "W_gen", "b") +
                                (tied ? "  (tied to the embedding)" : "");
    linear("logits", "Output projection", formula, x, head.unembed);  // (N, V)
    add({"probs", "Next-token probabilities", "p = softmax(logits)", {"logits"}, {}, {}, "",
         [](const StepContext& ctx) { return StepOutput{softmax_rows(ctx.input(0)), {}}; }});
}

}  // namespace attnlab
