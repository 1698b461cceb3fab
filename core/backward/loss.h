// The loss a backward pass starts from, read off the logits (N, V) of the forward pass:
//   next-token            mean over positions t with a next token (not padding) of −log softmax(logits[t])[ids[t+1]]
//   token:ID@POS          −log softmax(logits[POS])[ID]  (BERT's masked positions: the only choice for an encoder)
//   logit-diff:A,B@POS    logits[POS][A] − logits[POS][B]  ("why this token rather than that one")
//   logit:A@POS           logits[POS][A]                   d/d(logits): one-hot at (POS, A)
//   prob:A@POS            softmax(logits[POS])[A] = p_A    d/d(logits[POS]): p_A (e_A − p), zero elsewhere
// The last three are the metrics of activation patching (analysis/attribution_metric.h): its gradient estimate
// is one backward pass from them.
// ids are the sequence the logits are computed on: the decoder's input, or an encoder-only model's source.
#pragma once

#include "config.h"
#include "result.h"
#include "tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

enum class LossKind { next_token, token, logit_diff, logit, prob };

struct LossSpec {
    LossKind kind = LossKind::next_token;
    int token = -1;         // token: ID; logit-diff, logit, prob: A
    int other = -1;         // logit-diff: B
    int64_t position = -1;  // every kind but next-token: POS

    // "next-token", "token:7@1", "logit-diff:3,11@4", "logit:7@1" or "prob:7@1"; a one-line error for anything else.
    static Result<LossSpec> parse(const std::string& text);
    std::string to_string() const;   // the form parse reads
    std::string definition() const;  // in words and symbols, for a file's metadata and the UI
};

// The loss a model gets when none is chosen: next-token for anything with a decoder; an encoder-only model has
// no default (its logits predict masked tokens, so a token must be named) and gets an error saying so.
Result<LossSpec> default_loss(const ModelConfig& config);

struct LossValue {
    double value = 0.0;
    Tensor d_logits;        // dL/d(logits), (N, V)
    int64_t n_counted = 0;  // positions the loss averages over (1 for every kind but next-token)
};

// Whether the loss can be taken of N positions of a V-token vocabulary on ids (N,): the same one-line errors as
// evaluate_loss gives, without the logits (a timeline asks before the forward pass has run).
Status check_loss(const LossSpec& spec, int64_t n_positions, int64_t vocab_size, const std::vector<int>& ids,
                  int pad_id);

// The loss of logits (N, V) on ids (N,) (what next-token predicts; pad_id marks targets it skips, −1 for none).
// Errors name what is out of range: a position past N, an id past V, or no position with a next token.
Result<LossValue> evaluate_loss(const LossSpec& spec, const Tensor& logits, const std::vector<int>& ids, int pad_id);

}  // namespace attnlab
