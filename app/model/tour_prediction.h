// What an edit did to the prediction the Output view shows first (the last position's next token), against the
// chapter's setup: the token predicted then, its p then and now, and the token that leads now. The tour card of
// the multi-head chapter says it, so a class sees the effect of switching a head off in numbers.
#pragma once

#include "stepper.h"

#include <optional>
#include <vector>

namespace attnlab::gui {

struct PredictionChange {
    int token = 0;        // the setup's most probable next token
    float before = 0.0f;  // its p at the setup
    float after = 0.0f;   // its p now
    int leader = 0;       // the most probable next token now (== token when it still leads)
    float leader_p = 0.0f;
};

// The probs step's last row (V,), p = softmax(logits) after the last token; empty before that step has run.
std::vector<float> last_row_probs(const Stepper& stepper);

// The change from `before` to `now` (both (V,) rows of probabilities); nullopt when either is empty or they
// differ in size.
std::optional<PredictionChange> prediction_change(const std::vector<float>& before, const std::vector<float>& now);

}  // namespace attnlab::gui
