// Exact match, token accuracy and corpus BLEU-4 over tokenized sentences.
#include "train/metrics.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <string>
#include <unordered_map>

namespace attnlab {
namespace {

constexpr int kMaxOrder = 4;

// n-gram -> count; an n-gram is keyed by its tokens joined with U+001F (never inside a token).
std::unordered_map<std::string, int> ngram_counts(const Sentence& s, int n) {
    std::unordered_map<std::string, int> counts;
    const auto order = static_cast<size_t>(n);
    for (size_t i = 0; i + order <= s.size(); ++i) {
        std::string key = s[i];
        for (size_t k = 1; k < order; ++k) {
            key += '\x1f';
            key += s[i + k];
        }
        ++counts[key];
    }
    return counts;
}

}  // namespace

double exact_match(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references) {
    assert(hypotheses.size() == references.size());
    if (hypotheses.empty()) return 0.0;
    size_t equal = 0;
    for (size_t i = 0; i < hypotheses.size(); ++i) equal += hypotheses[i] == references[i] ? 1 : 0;
    return static_cast<double>(equal) / static_cast<double>(hypotheses.size());
}

double token_accuracy(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references) {
    assert(hypotheses.size() == references.size());
    size_t correct = 0, total = 0;
    for (size_t i = 0; i < hypotheses.size(); ++i) {
        const Sentence& h = hypotheses[i];
        const Sentence& r = references[i];
        for (size_t j = 0; j < std::min(h.size(), r.size()); ++j) correct += h[j] == r[j] ? 1 : 0;
        total += std::max(h.size(), r.size());
    }
    if (total == 0) return 1.0;
    return static_cast<double>(correct) / static_cast<double>(total);
}

// BLEU = BP · exp(¼ Σₙ log pₙ),  pₙ = Σ clipped matches / Σ hypothesis n-grams  (sums over the corpus),
// a hypothesis n-gram matching at most as often as it occurs in its reference;
// BP = exp(1 - r/c) when c < r, else 1  (c, r: total hypothesis and reference lengths).
double corpus_bleu(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references) {
    assert(hypotheses.size() == references.size());
    std::array<size_t, kMaxOrder> matched{}, possible{};
    size_t hyp_length = 0, ref_length = 0;
    for (size_t i = 0; i < hypotheses.size(); ++i) {
        hyp_length += hypotheses[i].size();
        ref_length += references[i].size();
        for (int n = 1; n <= kMaxOrder; ++n) {
            const auto hyp_counts = ngram_counts(hypotheses[i], n);
            const auto ref_counts = ngram_counts(references[i], n);
            for (const auto& [ngram, count] : hyp_counts) {
                const auto it = ref_counts.find(ngram);
                const int in_ref = it == ref_counts.end() ? 0 : it->second;
                matched[static_cast<size_t>(n - 1)] += static_cast<size_t>(std::min(count, in_ref));
                possible[static_cast<size_t>(n - 1)] += static_cast<size_t>(count);
            }
        }
    }
    double log_precision_sum = 0.0;
    for (size_t k = 0; k < kMaxOrder; ++k) {
        if (matched[k] == 0) return 0.0;  // also covers possible[k] == 0
        log_precision_sum += std::log(static_cast<double>(matched[k]) / static_cast<double>(possible[k]));
    }
    const double c = static_cast<double>(hyp_length), r = static_cast<double>(ref_length);
    const double brevity_penalty = c < r ? std::exp(1.0 - r / c) : 1.0;
    return 100.0 * brevity_penalty * std::exp(log_precision_sum / kMaxOrder);
}

}  // namespace attnlab
