// Beam search: keep beam_size live prefixes, extend each by its best next tokens, and move
// the extensions that end in <eos> to a finished list ranked by log P(Y) / lp(Y).
//
// Each step ranks every extension y₁..yₜ of every live prefix by log P (all have length t, so
// this is also the order by score). Walking that ranking:
//   - an <eos> extension is finished only if it ranks among the step's top beam_size;
//   - the first beam_size extensions that are not <eos> become the next live prefixes.
// Stopping rule (as fairseq, and Hugging Face with early_stopping=True): stop as soon as
// beam_size hypotheses have finished, or after max_new_tokens steps, when the prefixes still
// live are finished as they are. The finished list is then sorted by score and cut to beam_size.
// With beam_size 1 this is greedy decoding exactly: the step's top candidate either finishes
// (and the search stops) or is the one live prefix; ties go to the lower token id, as argmax.
// The bound rule "stop when no live prefix can beat the worst finished one" (T2T) is not used:
// under α > 0 it keeps extending after greedy's <eos> and can return a longer, non-greedy answer.
// A log-probability of -inf is an impossible token; a prefix whose every token is impossible
// is dropped, so the result may hold fewer than beam_size hypotheses (or none).
#include "beam_search.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>

namespace attnlab {

namespace {

// lp(Y) = ((5 + |Y|) / 6)^α
double gnmt_length_penalty(size_t n_tokens, double alpha) {
    return std::pow((5.0 + static_cast<double>(n_tokens)) / 6.0, alpha);
}

struct Candidate {
    double log_prob;  // log P of the live prefix's tokens plus this token
    int hyp;          // index of the live hypothesis it extends
    int token;
};

// Higher log P first; ties go to the earlier hypothesis, then the lower token id.
bool ranks_before(const Candidate& a, const Candidate& b) {
    if (a.log_prob != b.log_prob) return a.log_prob > b.log_prob;
    if (a.hyp != b.hyp) return a.hyp < b.hyp;
    return a.token < b.token;
}

}  // namespace

std::vector<BeamHypothesis> beam_search(const NextLogProbs& next_log_probs, const BeamOptions& options) {
    assert(next_log_probs && "beam_search needs a scorer");
    assert(options.beam_size >= 1 && "beam_size must be at least 1");
    assert(options.max_new_tokens >= 1 && "max_new_tokens must be at least 1");
    assert(std::isfinite(options.length_penalty) && "length_penalty must be finite");
    assert(options.eos_id >= 0 && options.sos_id >= 0 && "token ids must be non-negative");

    const size_t beam = static_cast<size_t>(options.beam_size);
    const double alpha = options.length_penalty;
    const auto make_hypothesis = [alpha](std::vector<int> tokens, double log_prob) {
        BeamHypothesis h;
        h.score = log_prob / gnmt_length_penalty(tokens.size(), alpha);
        h.tokens = std::move(tokens);
        h.log_prob = log_prob;
        return h;
    };

    std::vector<BeamHypothesis> live(1);  // the empty hypothesis: just <sos>
    std::vector<BeamHypothesis> next_live;
    std::vector<BeamHypothesis> finished;
    std::vector<std::vector<int>> prefixes;
    std::vector<Candidate> candidates;
    std::vector<int> row_tokens;  // the possible tokens of one row, best first after the partial sort
    Eigen::Index vocab = -1;      // V, fixed by the first call
    bool stopped_early = false;

    for (int step = 1; step <= options.max_new_tokens; ++step) {
        prefixes.clear();
        for (const BeamHypothesis& h : live) {
            std::vector<int> p;
            p.reserve(h.tokens.size() + 1);
            p.push_back(options.sos_id);
            p.insert(p.end(), h.tokens.begin(), h.tokens.end());
            prefixes.push_back(std::move(p));
        }

        const Mat log_probs = next_log_probs(prefixes);  // (n, V)
        assert(log_probs.rows() == static_cast<Eigen::Index>(live.size()) && "scorer must return one row per prefix");
        if (vocab < 0) vocab = log_probs.cols();
        assert(log_probs.cols() == vocab && "scorer changed its vocabulary size between steps");
        assert(options.eos_id < vocab && "eos_id is outside the scorer's vocabulary");

        // Each prefix's best beam + 1 tokens: enough for the step's top beam_size candidates
        // and for beam_size candidates that are not <eos> (at most one of them is <eos>).
        candidates.clear();
        for (Eigen::Index h = 0; h < log_probs.rows(); ++h) {
            row_tokens.clear();
            for (Eigen::Index v = 0; v < vocab; ++v) {
                const float x = log_probs(h, v);
                assert(!std::isnan(x) && x != std::numeric_limits<float>::infinity() &&
                       "scorer returned NaN or +inf as a log-probability");
                if (x != -std::numeric_limits<float>::infinity()) row_tokens.push_back(static_cast<int>(v));
            }
            const size_t n_keep = std::min(beam + 1, row_tokens.size());
            std::partial_sort(row_tokens.begin(), row_tokens.begin() + static_cast<std::ptrdiff_t>(n_keep),
                              row_tokens.end(), [&](int a, int b) {
                                  const float xa = log_probs(h, a), xb = log_probs(h, b);
                                  return xa != xb ? xa > xb : a < b;
                              });
            const double base = live[static_cast<size_t>(h)].log_prob;
            for (size_t i = 0; i < n_keep; ++i) {
                const int t = row_tokens[i];
                candidates.push_back({base + static_cast<double>(log_probs(h, t)), static_cast<int>(h), t});
            }
        }
        std::sort(candidates.begin(), candidates.end(), ranks_before);

        next_live.clear();
        for (size_t rank = 0; rank < candidates.size() && (rank < beam || next_live.size() < beam); ++rank) {
            const Candidate& c = candidates[rank];
            const bool is_eos = c.token == options.eos_id;
            if (is_eos ? rank >= beam : next_live.size() >= beam) continue;
            std::vector<int> tokens = live[static_cast<size_t>(c.hyp)].tokens;
            tokens.push_back(c.token);
            BeamHypothesis h = make_hypothesis(std::move(tokens), c.log_prob);
            (is_eos ? finished : next_live).push_back(std::move(h));
        }
        live.swap(next_live);

        if (finished.size() >= beam) {
            stopped_early = true;
            break;
        }
        if (live.empty()) break;  // every prefix finished or reached a dead end
    }

    // max_new_tokens reached: the hypotheses still live are finished as they are.
    if (!stopped_early)
        for (BeamHypothesis& h : live) finished.push_back(std::move(h));

    std::stable_sort(finished.begin(), finished.end(),
                     [](const BeamHypothesis& a, const BeamHypothesis& b) { return a.score > b.score; });
    if (finished.size() > beam) finished.resize(beam);
    return finished;
}

}  // namespace attnlab
