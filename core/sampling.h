// Sampling the next token as Hugging Face's generate(do_sample=True) does: temperature, then
// top-k, then top-p (nucleus), renormalise, draw one with a seeded generator.
//   p = softmax(logits / T)   (V)
//   top-k: keep the k most probable (k = 0 or k ≥ V keeps all)
//   top-p: of those, keep the fewest, most probable first, whose renormalised mass reaches top_p
//   draw from p restricted to the kept set and renormalised: p / Σ_kept p
#pragma once

#include "result.h"
#include "tensor.h"

#include <cstdint>
#include <vector>

namespace attnlab {

struct SamplingOptions {
    float temperature = 1.0f;  // T > 0
    int top_k = 0;             // ≥ 0; 0 keeps all
    float top_p = 1.0f;        // in [0, 1]; 1 keeps all, 0 keeps only the most probable token
    // Ids never drawn: their logits count as −∞, so p is the softmax over the others (ModelConfig::never_generated,
    // as Hugging Face's bad_words_ids processor runs before the warpers).
    std::vector<int> excluded = {};
};

struct RankedToken {
    int id = 0;
    float p = 0.0f;  // softmax(logits / T), before any cut
};

// The tokens ranked by p, most probable first (ties: the lower id first, so the order never depends
// on the sort), and where top-k and top-p cut that ranking. Both cuts keep a prefix of it.
struct SamplingSet {
    std::vector<RankedToken> ranked;  // the first ranks (see sampling_set's n_listed)
    int n_top_k = 0;                  // ranks [0, n_top_k) survive top-k
    int n_kept = 0;                   // ranks [0, n_kept) survive top-p too, the set a draw uses (≥ 1)
    double mass = 0.0;                // Σ p over the kept ranks: the share of p sampling draws from

    // A kept token's renormalised probability, p / mass (the kept ones sum to 1); 0 for a cut rank.
    float kept_p(size_t rank) const;
};

// The sampling set of one row of logits (V). `ranked` lists the first min(n_listed, V) ranks, or
// exactly the kept ones when n_listed < 0 (what a draw needs). Fails, with a one-line message, on
// non-finite logits or options out of range.
Result<SamplingSet> sampling_set(const Eigen::Ref<const RowVec>& logits, const SamplingOptions& options,
                                 int n_listed = -1);

// One token drawn from a set that lists every kept rank: u ~ U[0, 1) from mt19937_64(seed), then
// the first kept rank whose cumulative renormalised p exceeds u. The same set and seed give the same token.
int sample_from(const SamplingSet& set, uint64_t seed);

// sampling_set, then sample_from: the next token id.
Result<int> sample_token(const Eigen::Ref<const RowVec>& logits, const SamplingOptions& options, uint64_t seed);

}  // namespace attnlab
