// The loss form's choices, headless: what a kind of loss starts from when the user picks it, and how the
// form names a token. A one-token or logit-difference loss starts at the last position, on the token the
// model predicts there (and, for B, its runner-up): the loss a class would try first, never <pad> at 0.
#pragma once

#include "session.h"

#include <string>

namespace attnlab::gui {

// `current` with its kind set to `kind`. Switching to one token or a logit difference fills what `current`
// leaves unset (-1): the position with the last one, A (token) with the prediction there (the argmax of its
// logits, as greedy generation picks it), B (other) with the second most probable. Next-token needs nothing.
LossSpec loss_of_kind(const Session& session, const LossSpec& current, LossKind kind);

// A token of the output vocabulary (the target's, or an encoder-only model's source) as the form names it:
// its text, or "#id" when the model has no vocabulary or the id is outside it.
std::string loss_token_name(const Session& session, int id);

}  // namespace attnlab::gui
