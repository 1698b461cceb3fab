// The norm mechanism: LayerNorm (x − mean)/√(var + ε)·γ + β, or RMSNorm x/√(mean(x²) + ε)·γ, or Gemma's RMSNorm
// x/√(mean(x²) + ε)·(1 + γ) (ModelConfig::norm), with its ε (layer_norm_eps) and its place around each sublayer
// (norm_first: before it, on the branch; else after the residual add, on the stream; post_sublayer_norm: Gemma's
// second norm, of the sublayer's output before the residual add). The one reader of those switches.
#pragma once

#include "forward/mechanisms/mechanism.h"
#include "ops/row_stats.h"
#include "param_names.h"

#include <string>

namespace attnlab {

class NormMechanism {
public:
    explicit NormMechanism(const ModelConfig& config)
        : kind_(config.norm),
          eps_(config.layer_norm_eps),
          first_(config.norm_first),
          post_sublayer_(config.post_sublayer_norm),
          beta_(config.norm_bias),
          first_attention_norm_(config.first_attention_norm) {}

    bool rms() const { return kind_ != NormKind::layer_norm; }  // RMSNorm, with γ or with (1 + γ)
    bool plus_one() const { return kind_ == NormKind::rms_norm_plus_one; }
    // Gemma's: each sublayer's output goes through a norm of its own (StepKind::post_norm) before the residual add.
    bool after_sublayer_output() const { return post_sublayer_; }
    bool before_sublayer() const { return first_; }  // pre-norm: x + Sublayer(N(x)); post-norm: N(x + Sublayer(x))
    // Whether sublayer k of `layer` reads its input as it is: ModernBERT's layer 0 attention, whose attn_norm is the
    // identity (first_attention_norm false) as the embeddings' LayerNorm has just run. Its norm step copies x.
    bool identity_at(int layer, int k) const { return !first_attention_norm_ && layer == 0 && k == 1; }
    const char* name() const;                        // "LayerNorm", "RMSNorm"
    const char* symbol() const;                      // as formulas write it: "LN", "RMSNorm"
    // The residual add of a sublayer: "x + Sublayer(LN(x))" before it, "x + Sublayer(x)" after; "x + " and its
    // branch, what the sublayer adds: "Sublayer(LN(x))", "Sublayer(x)".
    std::string residual_formula() const;
    std::string branch_formula() const;
    // The branch of sublayer k of one layer: "Sublayer(x)" where its norm is the identity (ModernBERT's layer 0).
    std::string branch_formula_at(int layer, int k) const;
    // One sublayer as the stream sees it: "x ← x + Sublayer(LN(x))" or "x ← LN(x + Sublayer(x))"; `scale` goes
    // before the sublayer's output (StreamMultiplierMechanism::residual_formula_part: "x ← x + m·Sublayer(…)").
    std::string stream_formula(const std::string& scale = "") const;
    // The norm of sublayer k of a layer: "LayerNorm 2 (post-LN)", "RMSNorm 1 (pre-norm)".
    std::string sublayer_title(int k) const;
    // The norm of sublayer k's output (after_sublayer_output): "RMSNorm 1 of the sublayer's output".
    std::string post_sublayer_title(int k) const;
    std::string describe() const;  // "pre-LN", "post-LN", "pre-norm RMSNorm", "post-norm RMSNorm"

    // The step applying the norm to its one input: (N, C) -> (N, C), reading `params`' γ (and β: none when
    // params.bias is empty). Params without γ (an identity_at norm's) give the identity step, y = x, titled
    // "Norm k: none (identity)".
    PlacedStep step(const StepId& id, std::string title, const StepId& input, const NormParams& params) const;
    Tensor forward(const Weights& weights, const NormParams& params, const Tensor& x) const;  // (N, C) -> (N, C)
    // x, dy (N, C) -> dL/dx (N, C); adds dL/dγ (and dL/dβ) into grads.
    Tensor backward(const Weights& weights, const NormParams& params, const Tensor& x, const Tensor& dy,
                    ParamGrads& grads) const;

    // The norm as a linear map frozen at one row x of this run (what direct logit attribution reads a share
    // through): x' -> (x' − mean(x'), when it centres)·g / divisor + β, g = γ (or 1 + γ: gain()), where divisor = √(var(x) + ε) for LayerNorm
    // (which centres and has β) and √(mean(x²) + ε) for RMSNorm (neither).
    bool centres() const { return !rms(); }
    double frozen_divisor(const Eigen::Ref<const Eigen::RowVectorXd>& x) const;
    // What multiplies each normalised entry: γ as stored, or 1 + γ for Gemma's. (C,)
    Tensor gain(const Weights& weights, const NormParams& params) const;

    // The explanation kinds (the language files' "steps" keys) of its steps and of the residual add beside them.
    const char* residual_kind() const;      // residual_pre_ln, residual_post_rms, …
    const char* sublayer_kind() const;      // norm_pre_ln, norm_post_rms, norm_pre_ln_no_beta, …
    const char* sublayer_kind_at(int layer, int k) const;  // sublayer_kind(), or "norm_identity" at identity_at
    const char* residual_kind_at(int layer, int k) const;  // residual_kind(), or "residual_no_norm" at identity_at
    const char* post_sublayer_kind() const { return "post_norm"; }
    const char* stack_output_kind() const;  // stack_output_norm, stack_output_rms, stack_output_norm_no_beta
    // The embeddings' norm (over a sum, or the token embeddings alone) and the MLM head's: embed_norm,
    // embed_norm_tokens(_no_beta), mlm_head.norm(_no_beta).
    const char* embedding_norm_kind(bool over_sum) const;
    const char* head_norm_kind() const { return beta_ ? "mlm_head.norm" : "mlm_head.norm_no_beta"; }
    // The numbers its explanations show for input row x and output row y: LayerNorm: x's "mean" and "std"
    // (√(var + ε)), y's "out_mean" and "out_std"; RMSNorm: x's "rms" (√(mean(x²) + ε)) and "mean", y's "out_rms".
    ExplainNumbers row_numbers(RowRef x, RowRef y) const;

private:
    NormKind kind_;
    float eps_;
    bool first_;
    bool post_sublayer_;
    bool beta_;
    bool first_attention_norm_;
};

// A step variant of a norm's ε (Step::variant), shared with the head norms.
std::string eps_variant(float eps);

}  // namespace attnlab
