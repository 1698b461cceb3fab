#include "forward/mechanisms/norm.h"

#include "ops/layer_norm.h"
#include "ops/rms_norm.h"

#include <cmath>
#include <cstdio>

namespace attnlab {

std::string eps_variant(float eps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "eps=%.9g", static_cast<double>(eps));
    return buf;
}

const char* NormMechanism::name() const { return rms() ? "RMSNorm" : "LayerNorm"; }

const char* NormMechanism::symbol() const { return rms() ? "RMSNorm" : "LN"; }

std::string NormMechanism::branch_formula() const {
    if (first_ && post_sublayer_) return std::string(symbol()) + "(Sublayer(" + symbol() + "(x)))";
    return first_ ? std::string("Sublayer(") + symbol() + "(x))" : "Sublayer(x)";
}

std::string NormMechanism::branch_formula_at(int layer, int k) const {
    return identity_at(layer, k) ? "Sublayer(x)" : branch_formula();
}

std::string NormMechanism::residual_formula() const { return "x + " + branch_formula(); }

std::string NormMechanism::stream_formula(const std::string& scale) const {
    return first_ ? "x ← x + " + scale + branch_formula()
                  : std::string("x ← ") + symbol() + "(x + " + scale + "Sublayer(x))";
}

std::string NormMechanism::sublayer_title(int k) const {
    const char* place = first_ ? (rms() ? " (pre-norm)" : " (pre-LN)") : (rms() ? " (post-norm)" : " (post-LN)");
    return std::string(name()) + " " + std::to_string(k) + place;
}

std::string NormMechanism::post_sublayer_title(int k) const {
    return std::string(name()) + " " + std::to_string(k) + " of the sublayer's output";
}

std::string NormMechanism::describe() const {
    if (post_sublayer_) return plus_one() ? "RMSNorm (1 + γ) before and after each sublayer" : "norms before and after each sublayer";
    if (plus_one()) return first_ ? "pre-norm RMSNorm (1 + γ)" : "post-norm RMSNorm (1 + γ)";
    if (rms()) return first_ ? "pre-norm RMSNorm" : "post-norm RMSNorm";
    return first_ ? "pre-LN" : "post-LN";
}

PlacedStep NormMechanism::step(const StepId& id, std::string title, const StepId& input,
                               const NormParams& params) const {
    const NormMechanism norm = *this;
    if (params.weight.empty())  // ModernBERT's layer 0 attn_norm, nn.Identity: the gradient passes as it is
        return {id,
                {"Norm " + std::to_string(id.sublayer) + ": none (identity)",
                 "x' = x  (no norm: the embeddings' LayerNorm has just run)",
                 {input},
                 {},
                 {},
                 "identity",
                 [](const StepContext& ctx) { return StepOutput{ctx.input(0), {}}; },
                 [](const BackwardContext& b) { return InputGrads{b.d_output}; }}};
    const bool beta = !params.bias.empty();
    std::vector<std::string> read = {params.weight};
    if (!rms() && beta) read.push_back(params.bias);
    return {id,
            {std::move(title),
             plus_one() ? "RMSNorm(x) = x / √(mean(x²) + ε) · (1 + γ)"
             : rms()    ? "RMSNorm(x) = x / √(mean(x²) + ε) · γ"
             : beta     ? "LN(x) = (x − mean) / √(var + ε) · γ + β"
                        : "LN(x) = (x − mean) / √(var + ε) · γ",
             {input},
             std::move(read),
             {},
             eps_variant(eps_),
             [norm, params](const StepContext& ctx) {
                 return StepOutput{norm.forward(ctx.weights, params, ctx.input(0)), {}};
             },
             [norm, params](const BackwardContext& b) {
                 return InputGrads{norm.backward(b.weights, params, b.input(0), b.d_output, b.params)};
             }}};
}

Tensor NormMechanism::gain(const Weights& weights, const NormParams& params) const {
    Tensor g = weights.at(params.weight);
    if (plus_one())
        for (float& x : g.data) x += 1.0f;
    return g;
}

Tensor NormMechanism::forward(const Weights& weights, const NormParams& params, const Tensor& x) const {
    if (plus_one()) return rms_norm_forward(x, gain(weights, params), eps_);
    if (rms()) return rms_norm_forward(x, weights.at(params.weight), eps_);
    const Tensor& gamma = weights.at(params.weight);
    if (params.bias.empty()) return layer_norm_forward(x, gamma, Tensor(gamma.shape), eps_);  // β = 0 (C,)
    return layer_norm_forward(x, gamma, weights.at(params.bias), eps_);
}

Tensor NormMechanism::backward(const Weights& weights, const NormParams& params, const Tensor& x, const Tensor& dy,
                               ParamGrads& grads) const {
    const Tensor& stored = weights.at(params.weight);
    Tensor& d_gain = grads.of(params.weight, stored.shape);  // d(1 + γ)/dγ = 1: the same gradient
    if (plus_one()) return rms_norm_backward(x, gain(weights, params), eps_, dy, d_gain);
    if (rms()) return rms_norm_backward(x, stored, eps_, dy, d_gain);
    if (params.bias.empty()) return layer_norm_backward(x, stored, eps_, dy, &d_gain, nullptr);
    Tensor& d_bias = grads.of(params.bias, weights.at(params.bias).shape);
    return layer_norm_backward(x, stored, eps_, dy, &d_gain, &d_bias);
}

double NormMechanism::frozen_divisor(const Eigen::Ref<const Eigen::RowVectorXd>& x) const {
    const double n = static_cast<double>(x.size()), eps = static_cast<double>(eps_);
    if (rms()) return std::sqrt(x.squaredNorm() / n + eps);
    return std::sqrt((x.array() - x.mean()).matrix().squaredNorm() / n + eps);
}

const char* NormMechanism::residual_kind() const {
    if (post_sublayer_) return "residual_pre_post_norm";
    if (rms()) return first_ ? "residual_pre_rms" : "residual_post_rms";
    return first_ ? "residual_pre_ln" : "residual_post_ln";
}

const char* NormMechanism::sublayer_kind() const {
    if (plus_one() && first_) return "norm_pre_rms_plus_one";  // validate_config refuses it after the residual
    if (rms()) return first_ ? "norm_pre_rms" : "norm_post_rms";
    if (!beta_ && first_) return "norm_pre_ln_no_beta";  // validate_config refuses it after the residual
    return first_ ? "norm_pre_ln" : "norm_post_ln";
}

const char* NormMechanism::residual_kind_at(int layer, int k) const {
    return identity_at(layer, k) ? "residual_no_norm" : residual_kind();
}

const char* NormMechanism::sublayer_kind_at(int layer, int k) const {
    return identity_at(layer, k) ? "norm_identity" : sublayer_kind();
}

const char* NormMechanism::stack_output_kind() const {
    if (plus_one()) return "stack_output_rms_plus_one";
    if (rms()) return "stack_output_rms";
    return beta_ ? "stack_output_norm" : "stack_output_norm_no_beta";
}

const char* NormMechanism::embedding_norm_kind(bool over_sum) const {
    if (over_sum) return "embed_norm";
    return beta_ ? "embed_norm_tokens" : "embed_norm_tokens_no_beta";
}

ExplainNumbers NormMechanism::row_numbers(RowRef x, RowRef y) const {
    if (rms()) return {{"rms", row_rms(x, eps_)}, {"out_rms", row_rms(y)}, {"mean", row_mean(x)}};
    return {{"mean", row_mean(x)}, {"std", row_std(x, eps_)}, {"out_mean", row_mean(y)}, {"out_std", row_std(y)}};
}

}  // namespace attnlab
