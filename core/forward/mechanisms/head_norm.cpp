#include "forward/mechanisms/head_norm.h"

#include "forward/mechanisms/norm.h"
#include "ops/attention.h"
#include "ops/rms_norm.h"

#include <cassert>

namespace attnlab {

namespace {

// What multiplies each normalised entry: γ as stored, or 1 + γ (Gemma's). (D,)
Tensor gain_of(const Tensor& stored, bool plus_one) {
    Tensor g = stored;
    if (plus_one)
        for (float& x : g.data) x += 1.0f;
    return g;
}

}  // namespace

PlacedStep HeadNormMechanism::step(const AttentionSite& site, AttentionStage stage, const StepId& input,
                                   const NormParams& gain) const {
    assert(on_ && (stage == AttentionStage::q_norm || stage == AttentionStage::k_norm));
    const bool query = stage == AttentionStage::q_norm;
    const std::string x = query ? "q" : "k", g = gain.weight;
    const float eps = eps_;
    if (across_) {  // (B·H, T, D) -> (B·T, H·D), the norm of each token's row, and back
        return {StepId::attention_at(site, stage),
                {std::string("RMSNorm of the ") + (query ? "queries" : "keys") + " across the heads",
                 x + " / √(mean(" + x + "²) + ε) · γ  (over the H·D numbers of one token, all heads at once)",
                 {input},
                 {g},
                 {},
                 eps_variant(eps),
                 [g, eps](const StepContext& ctx) {
                     const Tensor& in = ctx.input(0);
                     const int64_t n_heads = in.dim(0) / ctx.inputs.batch;
                     return StepOutput{
                         split_heads(rms_norm_forward(merge_heads(in, ctx.inputs.batch), ctx.param(g), eps), n_heads,
                                     ctx.inputs.batch),
                         {}};
                 },
                 [g, eps](const BackwardContext& b) {
                     const int64_t batch = b.inputs.batch, n_heads = b.d_output.dim(0) / batch;
                     const Tensor dx = rms_norm_backward(merge_heads(b.input(0), batch), b.param(g), eps,
                                                         merge_heads(b.d_output, batch), b.param_grad(g));
                     return InputGrads{split_heads(dx, n_heads, batch)};
                 }}};
    }
    const bool plus_one = plus_one_;
    return {StepId::attention_at(site, stage),
            {std::string("RMSNorm of each ") + (query ? "query" : "key") + " head",
             x + " / √(mean(" + x + "²) + ε) · " + (plus_one ? "(1 + γ)" : "γ") + "  (over the D numbers of one head)",
             {input},
             {g},
             {},
             eps_variant(eps),
             [g, eps, plus_one](const StepContext& ctx) {
                 return StepOutput{rms_norm_forward(ctx.input(0), gain_of(ctx.param(g), plus_one), eps), {}};
             },
             [g, eps, plus_one](const BackwardContext& b) {  // d(1 + γ)/dγ = 1: the same gradient
                 return InputGrads{rms_norm_backward(b.input(0), gain_of(b.param(g), plus_one), eps, b.d_output,
                                                     b.param_grad(g))};
             }}};
}

const char* HeadNormMechanism::across_heads_kind(AttentionStage stage) {
    assert(stage == AttentionStage::q_norm || stage == AttentionStage::k_norm);
    return stage == AttentionStage::q_norm ? "attn.q_norm_across" : "attn.k_norm_across";
}

Tensor HeadNormMechanism::forward(const Weights& weights, const NormParams& gain, const Tensor& x) const {
    return rms_norm_forward(x, gain_of(weights.at(gain.weight), plus_one_), eps_);
}

const char* HeadNormMechanism::kind(AttentionStage stage, bool plus_one) {
    assert(stage == AttentionStage::q_norm || stage == AttentionStage::k_norm);
    if (plus_one) return stage == AttentionStage::q_norm ? "attn.q_norm_plus_one" : "attn.k_norm_plus_one";
    return stage == AttentionStage::q_norm ? "attn.q_norm" : "attn.k_norm";
}

}  // namespace attnlab
