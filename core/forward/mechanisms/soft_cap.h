// The soft-capping mechanism (ModelConfig::attention_softcap, logit_softcap; Gemma 2's): c·tanh(x/c), which keeps
// small values as they are and squashes large ones smoothly into (−c, c). Of each attention's scaled scores, before
// the mask (AttentionStage::capped), and of the logits before the softmax (StepKind::capped_logits). The one reader
// of those switches.
#pragma once

#include "forward/mechanisms/mechanism.h"
#include "ops/row_stats.h"

namespace attnlab {

// y = c·tanh(x/c), entry by entry; c > 0.
Tensor soft_cap(Tensor x, float c);
// dL/dx = dL/dy·(1 − (y/c)²) from the capped y.
Tensor soft_cap_backward(const Tensor& y, Tensor dy, float c);

class SoftCapMechanism {
public:
    explicit SoftCapMechanism(const ModelConfig& config)
        : scores_cap_(config.attention_softcap), logits_cap_(config.logit_softcap) {}

    bool caps_scores() const { return scores_cap_ > 0.0f; }
    bool caps_logits() const { return logits_cap_ > 0.0f; }
    // The stage capped of an attention over its scaled (or biased) scores (B·H, Tq, Tk) -> the same.
    PlacedStep scores_step(const AttentionSite& site, const StepId& scores) const;
    // capped_logits over the logits (N, V) -> (N, V).
    PlacedStep logits_step(const StepId& logits, const StepId& id) const;
    // Explanation kinds: "attn.capped", "capped_logits"; their backward: "soft_cap".
    static const char* scores_kind() { return "attn.capped"; }
    static const char* logits_kind() { return "capped_logits"; }
    static const char* backward_kind() { return "soft_cap"; }
    // The numbers its explanations show for one entry x -> y and its row: "before", "after", "cap", the row's
    // largest value before and after ("row_max_before", "row_max_after").
    ExplainNumbers numbers(float cap, float x, float y, RowRef x_row, RowRef y_row) const;
    float scores_cap() const { return scores_cap_; }
    float logits_cap() const { return logits_cap_; }

private:
    float scores_cap_;
    float logits_cap_;
};

// The logits the probabilities and the loss read: capped_logits when the config caps them, else logits.
StepId final_logits_of(const ModelConfig& config);

}  // namespace attnlab
