// Greedy autoregressive decoding: start from the decoder's current input (usually <sos>),
// append the most probable next token, and repeat until <eos> or max_len.
#pragma once

#include "stepper.h"

namespace attnlab {

// The decoder input grows one token per iteration; the encoder's steps are reused.
// Returns the tokens appended (ending with <eos> when it was produced). The stepper is
// left holding the full decoded sequence with every step run.
Result<std::vector<int>> greedy_decode(Stepper& stepper);

int argmax_row(const Tensor& logits, int64_t row);  // (N, V) -> id
// The id greedy generation picks from a row of logits (N, V): the largest logit among the ids the config lets it
// generate (ModelConfig::never_generated left out; the lower id on ties).
int greedy_next(const Tensor& logits, int64_t row, const ModelConfig& config);

}  // namespace attnlab
