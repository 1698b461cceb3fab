// Beam search (paper §6.1: beam 4, length penalty α = 0.6) over any model that scores next tokens.
// Length penalty as in Wu et al. 2016 (GNMT): lp(Y) = ((5 + |Y|) / 6)^α, a hypothesis scores log P(Y) / lp(Y).
#pragma once

#include "tensor.h"

#include <functional>
#include <vector>

namespace attnlab {

// prefixes: n sequences starting with <sos>  ->  (n, V) log-probabilities of each one's next token.
using NextLogProbs = std::function<Mat(const std::vector<std::vector<int>>& prefixes)>;

struct BeamOptions {
    int beam_size = 4;
    float length_penalty = 0.6f;  // α
    int max_new_tokens = 64;      // a hypothesis without <eos> after this many tokens is finished as is
    int sos_id = 1, eos_id = 2;
};

struct BeamHypothesis {
    std::vector<int> tokens;  // the generated tokens, without <sos>; ends with <eos> when it finished
    double log_prob = 0.0;    // Σ log P of its tokens
    double score = 0.0;       // log_prob / lp
};

// The finished hypotheses, best score first (at most beam_size). With beam_size 1 it is greedy decoding.
std::vector<BeamHypothesis> beam_search(const NextLogProbs& next_log_probs, const BeamOptions& options);

}  // namespace attnlab
