// Residual sublayers (post-LN or pre-LN), the FFN, whole layers, stack outputs and the output head.
#include "forward/graph_builder.h"
#include "ops/activation.h"
#include "ops/layer_norm.h"
#include "ops/linear.h"
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
                                     const std::string& param_prefix) {
    const std::string g = param_prefix + ".weight", b = param_prefix + ".bias";
    add({path, title, "LN(x) = (x − mean) / √(var + ε) · γ + β", {input}, {g, b}, {}, eps_variant(config_.layer_norm_eps),
         [g, b](const StepContext& ctx) {
             return StepOutput{layer_norm_forward(ctx.input(0), ctx.param(g), ctx.param(b), ctx.config.layer_norm_eps), {}};
         }});
    return path;
}

std::string GraphBuilder::residual_sublayer(const std::string& layer, int k, const std::string& x,
                                            const SublayerFn& sublayer) {
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
        layer_norm(norm, "LayerNorm " + n + " (pre-LN)", x, norm);
        add_residual(sublayer(norm), "x + Sublayer(LN(x))");
        return residual;
    }
    add_residual(sublayer(x), "x + Sublayer(x)");  // LN(x + Sublayer(x))
    return layer_norm(norm, "LayerNorm " + n + " (post-LN)", residual, norm);
}

std::string GraphBuilder::feed_forward(const std::string& layer, const std::string& input) {
    const std::string w1 = layer + ".linear1.weight", b1 = layer + ".linear1.bias";
    const std::string w2 = layer + ".linear2.weight", b2 = layer + ".linear2.bias";
    add({layer + ".ffn.hidden", "FFN first linear", "h = x·W_1ᵀ + b_1", {input}, {w1, b1}, {}, "",
         [w1, b1](const StepContext& ctx) {
             return StepOutput{linear_forward(ctx.input(0), ctx.param(w1), &ctx.param(b1)), {}};  // (N, F)
         }});
    add({layer + ".ffn.activation", "FFN activation (" + to_string(config_.activation) + ")",
         activation_formula(config_.activation), {layer + ".ffn.hidden"}, {}, {}, "", [](const StepContext& ctx) {
             return StepOutput{activation_forward(ctx.input(0), ctx.config.activation), {}};
         }});
    add({layer + ".ffn.out", "FFN second linear", "FFN(x) = a·W_2ᵀ + b_2", {layer + ".ffn.activation"}, {w2, b2}, {}, "",
         [w2, b2](const StepContext& ctx) {
             return StepOutput{linear_forward(ctx.input(0), ctx.param(w2), &ctx.param(b2)), {}};  // (N, C)
         }});
    return layer + ".ffn.out";
}

std::string GraphBuilder::self_block(const std::string& layer, const std::string& input, const std::string& mask) {
    std::string x = residual_sublayer(layer, 1, input, [&](const std::string& in) {
        return attention(layer + ".self_attn", layer + ".self_attn", in, in, mask);
    });
    return residual_sublayer(layer, 2, x, [&](const std::string& in) { return feed_forward(layer, in); });
}

std::string GraphBuilder::cross_block(const std::string& layer, const std::string& input, const std::string& memory,
                                      const std::string& self_mask, const std::string& cross_mask) {
    std::string x = residual_sublayer(layer, 1, input, [&](const std::string& in) {
        return attention(layer + ".self_attn", layer + ".self_attn", in, in, self_mask);
    });
    x = residual_sublayer(layer, 2, x, [&](const std::string& in) {
        return attention(layer + ".cross_attn", layer + ".multihead_attn", in, memory, cross_mask);
    });
    return residual_sublayer(layer, 3, x, [&](const std::string& in) { return feed_forward(layer, in); });
}

std::string GraphBuilder::stack_output(const std::string& stack, const std::string& input) {
    const std::string path = stack + ".output";
    if (config_.final_norm) return layer_norm(path, "Final LayerNorm of the " + stack, input, stack + ".norm");
    add({path, "Output of the " + stack, "the last layer's output", {input}, {}, {}, "",
         [](const StepContext& ctx) { return StepOutput{ctx.input(0), {}}; }});
    return path;
}

void GraphBuilder::output_head(const std::string& input) {
    const std::string w = output_weight_name(config_);
    add({"logits", "Output projection", config_.tie_embeddings ? "logits = x·Eᵀ + b  (tied to the embedding)" : "logits = x·W_genᵀ + b",
         {input}, {w, "generator.bias"}, {}, "", [w](const StepContext& ctx) {  // the bias is optional
             return StepOutput{linear_forward(ctx.input(0), ctx.param(w), ctx.weights.find("generator.bias")), {}};
         }});
    add({"probs", "Next-token probabilities", "p = softmax(logits)", {"logits"}, {}, {}, "",
         [](const StepContext& ctx) { return StepOutput{softmax_rows(ctx.input(0)), {}}; }});
}

}  // namespace attnlab
