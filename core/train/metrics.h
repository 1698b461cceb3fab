// Scores of decoded sequences against references, as the CLI's eval and the Training view report them.
#pragma once

#include <string>
#include <vector>

namespace attnlab {

using Sentence = std::vector<std::string>;  // tokens, without <sos>/<eos>

// Fraction (0..1) of hypotheses equal to their reference, token for token.
double exact_match(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references);
// Σ positions where hyp[j] == ref[j]  /  Σ max(|hyp|, |ref|)   (0..1; 1 when both are empty).
double token_accuracy(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references);
// Corpus BLEU-4 (Papineni et al.): clipped n-gram precisions for n = 1..4, their geometric mean,
// times the brevity penalty; 0..100. No smoothing: 0 when any n-gram order has no match.
double corpus_bleu(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references);

}  // namespace attnlab
