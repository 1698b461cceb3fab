// What direct logit attribution and activation patching explain: one number read off the logits (N, V) at one
// position (the spellings of the loss, backward/loss.h, which has each one's gradient at the logits).
//   logit:A@POS          logits[POS][A]
//   logit-diff:A,B@POS   logits[POS][A] − logits[POS][B]
//   prob:A@POS           softmax(logits[POS])[A]
// Patching reads all three. Attribution refuses prob: a probability is not linear in the residual stream, and its
// first-order split p·(share of logit A − Σ_v p_v·share of logit v) sums to p·(logit_A − Σ_v p_v·logit_v), not to p.
#pragma once

#include "result.h"

#include <cstdint>
#include <string>

namespace attnlab {

enum class AttributionMetricKind { logit, logit_diff, prob };
// Which metrics a parse takes: the linear ones (what attribution splits exactly), or prob too (patching).
enum class MetricKinds { linear, any };

struct AttributionMetric {
    AttributionMetricKind kind = AttributionMetricKind::logit;
    int token = -1;         // A
    int other = -1;         // logit-diff: B
    int64_t position = -1;  // POS, 0-based row of the logits

    // "logit:7@2", "logit-diff:3,11@4", and with MetricKinds::any "prob:7@2"; a one-line error for anything else
    // (for "prob:" under MetricKinds::linear: attribution's reason, not supported yet).
    static Result<AttributionMetric> parse(const std::string& text, MetricKinds kinds = MetricKinds::linear);
    std::string to_string() const;  // the form parse reads
};

// Attribution's one-line reason for refusing prob:A@POS (`text`, the metric's spelling).
std::string prob_refusal(const std::string& text);

}  // namespace attnlab
