// The head-norm mechanism (ModelConfig::qk_norm, Qwen3's): an RMSNorm over the D numbers of each head of Q and of
// K, with a γ (D,) of its own for each, before RoPE turns them. The one reader of qk_norm's steps and explanations
// (param_names.h names its γ).
#pragma once

#include "forward/mechanisms/mechanism.h"
#include "param_names.h"

namespace attnlab {

class HeadNormMechanism {
public:
    explicit HeadNormMechanism(const ModelConfig& config) : on_(config.qk_norm), eps_(config.layer_norm_eps) {}

    bool on() const { return on_; }
    // The norm of each head of Q (stage q_norm) or K (k_norm) over its input (B·H, T, D) -> (B·H, T, D).
    PlacedStep step(const AttentionSite& site, AttentionStage stage, const StepId& input, const NormParams& gain) const;
    Tensor forward(const Weights& weights, const NormParams& gain, const Tensor& x) const;  // rows of D -> the same
    // Explanation kinds: "attn.q_norm", "attn.k_norm" for its steps, "head_norm" for their backward.
    static const char* kind(AttentionStage stage);
    static const char* backward_kind() { return "head_norm"; }
    std::string describe() const { return on_ ? "RMSNorm of Q and K per head" : ""; }

private:
    bool on_;
    float eps_;
};

}  // namespace attnlab
