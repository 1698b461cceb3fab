// The head-norm mechanism (ModelConfig::qk_norm, Qwen3's and Gemma 3's): an RMSNorm over the D numbers of each head
// of Q and of K, with a γ (D,) of its own for each, before RoPE turns them; of the model's kind of RMSNorm (Gemma's
// multiplies by 1 + γ). The one reader of qk_norm's steps and explanations
// (param_names.h names its γ).
#pragma once

#include "forward/mechanisms/mechanism.h"
#include "param_names.h"

namespace attnlab {

class HeadNormMechanism {
public:
    explicit HeadNormMechanism(const ModelConfig& config)
        : on_(config.qk_norm),
          across_(config.qk_norm_across_heads),
          plus_one_(config.norm == NormKind::rms_norm_plus_one),
          eps_(config.layer_norm_eps) {}

    bool on() const { return on_; }
    // The norm of each head of Q (stage q_norm) or K (k_norm) over its input (B·H, T, D) -> (B·H, T, D); across the
    // heads (OLMoE's qk_norm_across_heads), of each token's H·D numbers at once, with a γ (H·D,).
    PlacedStep step(const AttentionSite& site, AttentionStage stage, const StepId& input, const NormParams& gain) const;
    Tensor forward(const Weights& weights, const NormParams& gain, const Tensor& x) const;  // rows of D -> the same
    bool across_heads() const { return across_; }
    // Explanation kinds: "attn.q_norm", "attn.k_norm" for its steps ("attn.q_norm_plus_one", … for Gemma's),
    // "head_norm" for their backward.
    static const char* kind(AttentionStage stage, bool plus_one = false);
    // Across the heads: "attn.q_norm_across", "attn.k_norm_across".
    static const char* across_heads_kind(AttentionStage stage);
    static const char* backward_kind() { return "head_norm"; }
    std::string describe() const {
        return !on_ ? "" : across_ ? "RMSNorm of Q and K across the heads" : "RMSNorm of Q and K per head";
    }

private:
    bool on_;
    bool across_;
    bool plus_one_;  // Gemma 3's: x/√(mean(x²) + ε)·(1 + γ)
    float eps_;
};

}  // namespace attnlab
