// What a direct logit attribution explains: one number read off the logits (N, V) at one position.
//   logit:A@POS          logits[POS][A]
//   logit-diff:A,B@POS   logits[POS][A] − logits[POS][B]   (the loss's spelling, backward/loss.h)
// prob:A@POS is recognised but refused: a probability is not linear in the residual stream, and its first-order
// split p·(share of logit A − Σ_v p_v·share of logit v) sums to p·(logit_A − Σ_v p_v·logit_v), not to p.
#pragma once

#include "result.h"

#include <cstdint>
#include <string>

namespace attnlab {

enum class AttributionMetricKind { logit, logit_diff };

struct AttributionMetric {
    AttributionMetricKind kind = AttributionMetricKind::logit;
    int token = -1;         // A
    int other = -1;         // logit-diff: B
    int64_t position = -1;  // POS, 0-based row of the logits

    // "logit:7@2" or "logit-diff:3,11@4"; a one-line error for anything else (and for "prob:", not supported yet).
    static Result<AttributionMetric> parse(const std::string& text);
    std::string to_string() const;  // the form parse reads
};

}  // namespace attnlab
