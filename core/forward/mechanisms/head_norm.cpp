#include "forward/mechanisms/head_norm.h"

#include "forward/mechanisms/norm.h"
#include "ops/rms_norm.h"

#include <cassert>

namespace attnlab {

PlacedStep HeadNormMechanism::step(const AttentionSite& site, AttentionStage stage, const StepId& input,
                                   const NormParams& gain) const {
    assert(on_ && (stage == AttentionStage::q_norm || stage == AttentionStage::k_norm));
    const bool query = stage == AttentionStage::q_norm;
    const std::string x = query ? "q" : "k", g = gain.weight;
    const float eps = eps_;
    return {StepId::attention_at(site, stage),
            {std::string("RMSNorm of each ") + (query ? "query" : "key") + " head",
             x + " / √(mean(" + x + "²) + ε) · γ  (over the D numbers of one head)",
             {input},
             {g},
             {},
             eps_variant(eps),
             [g, eps](const StepContext& ctx) {
                 return StepOutput{rms_norm_forward(ctx.input(0), ctx.param(g), eps), {}};
             },
             [g, eps](const BackwardContext& b) {
                 return InputGrads{rms_norm_backward(b.input(0), b.param(g), eps, b.d_output, b.param_grad(g))};
             }}};
}

Tensor HeadNormMechanism::forward(const Weights& weights, const NormParams& gain, const Tensor& x) const {
    return rms_norm_forward(x, weights.at(gain.weight), eps_);
}

const char* HeadNormMechanism::kind(AttentionStage stage) {
    assert(stage == AttentionStage::q_norm || stage == AttentionStage::k_norm);
    return stage == AttentionStage::q_norm ? "attn.q_norm" : "attn.k_norm";
}

}  // namespace attnlab
