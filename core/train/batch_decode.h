// Decoding many sources at once with the batched pass: the encoder runs once per batch and the
// decoder re-runs on the growing prefixes. Used to score held-out splits and by `attnlab-cli eval`.
// Sources and results are bare tokens: no <sos>, no <eos>.
#pragma once

#include "beam_search.h"
#include "config.h"
#include "weights.h"

#include <vector>

namespace attnlab {

// Greedy: each sequence stops at <eos> or after max_new_tokens. Asserts encoder_decoder and ids in range.
std::vector<std::vector<int>> greedy_decode_batch(const ModelConfig& config, const Weights& weights,
                                                  const std::vector<std::vector<int>>& sources, int max_new_tokens);

// Beam search for one source (options' sos/eos are taken from the config); the best hypothesis.
std::vector<int> beam_decode(const ModelConfig& config, const Weights& weights, const std::vector<int>& source,
                             BeamOptions options);

}  // namespace attnlab
