// Next-token sampling: p = softmax(logits / T), top-k, top-p, renormalise, a seeded draw.
// The order and the cuts follow Hugging Face transformers (generation/utils.py builds the warpers
// as TemperatureLogitsWarper, then TopKLogitsWarper, then TopPLogitsWarper; generation/logits_process.py
// defines them). Where this differs from it, the comment at the cut says so.
#include "sampling.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace attnlab {

namespace {

// The ids ordered by p, most probable first and the lower id first on ties, sorted only as far
// as asked: ranks [0, sorted_) are final, and every id after them ranks below them.
class Ranking {
public:
    explicit Ranking(const std::vector<double>& p) : p_(p), ids_(p.size()) { std::iota(ids_.begin(), ids_.end(), 0); }

    int id(size_t rank) {
        sort_to(rank + 1);
        return ids_[rank];
    }

private:
    void sort_to(size_t n) {
        if (n <= sorted_) return;
        n = std::min(ids_.size(), std::max(n, 2 * sorted_ + 16));  // grow geometrically: a long walk costs O(V log V)
        const auto first = ids_.begin() + static_cast<std::ptrdiff_t>(sorted_);
        std::partial_sort(first, ids_.begin() + static_cast<std::ptrdiff_t>(n), ids_.end(), [this](int a, int b) {
            const double pa = p_[static_cast<size_t>(a)], pb = p_[static_cast<size_t>(b)];
            return pa > pb || (pa == pb && a < b);
        });
        sorted_ = n;
    }

    const std::vector<double>& p_;
    std::vector<int> ids_;
    size_t sorted_ = 0;
};

}  // namespace

float SamplingSet::kept_p(size_t rank) const {
    if (rank >= static_cast<size_t>(n_kept) || rank >= ranked.size() || mass <= 0.0) return 0.0f;
    return static_cast<float>(static_cast<double>(ranked[rank].p) / mass);
}

Result<SamplingSet> sampling_set(const Eigen::Ref<const RowVec>& logits, const SamplingOptions& options, int n_listed) {
    const size_t V = static_cast<size_t>(logits.size());
    if (V == 0) return Error{"there are no logits to sample from"};
    if (!std::isfinite(options.temperature) || options.temperature <= 0.0f)
        return Error{"the temperature must be a positive number"};
    if (options.top_k < 0) return Error{"top-k must be 0 (all tokens) or a positive count"};
    if (!(options.top_p >= 0.0f && options.top_p <= 1.0f)) return Error{"top-p must be between 0 and 1"};
    if (!logits.allFinite()) return Error{"the logits are not finite, so there is nothing to sample from"};
    std::vector<char> allowed(V, 1);  // (V,)
    for (const int id : options.excluded)
        if (id >= 0 && static_cast<size_t>(id) < V) allowed[static_cast<size_t>(id)] = 0;
    if (std::find(allowed.begin(), allowed.end(), 1) == allowed.end())
        return Error{"every token is excluded from generation, so there is nothing to sample from"};

    // p = softmax(logits / T) over the allowed ids (0 for the others), in double so that the cumulative sums below
    // do not drift.   (V)
    double max_logit = -std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < V; ++j)
        if (allowed[j]) max_logit = std::max(max_logit, static_cast<double>(logits[static_cast<Eigen::Index>(j)]));
    const double T = static_cast<double>(options.temperature);
    std::vector<double> p(V, 0.0);
    double sum = 0.0;
    for (size_t j = 0; j < V; ++j)
        if (allowed[j])
            sum += p[j] = std::exp((static_cast<double>(logits[static_cast<Eigen::Index>(j)]) - max_logit) / T);
    for (double& v : p) v /= sum;
    Ranking ranking(p);

    // Top-k keeps exactly k ranks: on ties at the k-th probability the lower ids win. (HF's
    // TopKLogitsWarper keeps every token tied with the k-th score, so it may keep more than k.)
    const size_t k =
        options.top_k == 0 || static_cast<size_t>(options.top_k) >= V ? V : static_cast<size_t>(options.top_k);
    double mass_k = 0.0;  // Σ p over the top k
    if (k == V)
        mass_k = std::accumulate(p.begin(), p.end(), 0.0);
    else
        for (size_t r = 0; r < k; ++r) mass_k += p[static_cast<size_t>(ranking.id(r))];

    // Top-p, on the top-k survivors renormalised (HF applies TopPLogitsWarper to the logits TopK
    // left, softmaxed again). HF sorts ascending and removes a token when the cumulative p up to and
    // including it is ≤ 1 − top_p; ranked most probable first, that is: a token goes when the ranks
    // before it already hold ≥ top_p. So the token that carries the sum across top_p is kept, and
    // the set is the smallest prefix whose mass reaches top_p. The first token always stays
    // (min_tokens_to_keep = 1). top_p = 1 keeps all, as HF, which then adds no warper at all.
    size_t kept = k;
    double mass = mass_k;
    if (options.top_p < 1.0f) {
        const double top_p = static_cast<double>(options.top_p);
        double before = 0.0;  // Σ p over the ranks before r
        kept = 0;
        for (size_t r = 0; r < k; ++r) {
            if (r > 0 && before / mass_k >= top_p) break;
            before += p[static_cast<size_t>(ranking.id(r))];
            kept = r + 1;
        }
        mass = before;
    }

    SamplingSet set;
    set.n_top_k = static_cast<int>(k);
    set.n_kept = static_cast<int>(kept);
    set.mass = mass;
    const size_t n = n_listed < 0 ? kept : std::min(V, static_cast<size_t>(n_listed));
    set.ranked.reserve(n);
    for (size_t r = 0; r < n; ++r) {
        const int id = ranking.id(r);
        set.ranked.push_back({id, static_cast<float>(p[static_cast<size_t>(id)])});
    }
    return set;
}

int sample_from(const SamplingSet& set, uint64_t seed) {
    assert(set.n_kept >= 1 && set.ranked.size() >= static_cast<size_t>(set.n_kept));
    const size_t n = static_cast<size_t>(set.n_kept);
    double total = 0.0;
    for (size_t r = 0; r < n; ++r) total += static_cast<double>(set.ranked[r].p);
    // u ~ U[0, 1) from the generator's 53 high bits: mt19937_64's output is fixed by the standard, and
    // this avoids std::uniform_real_distribution, whose result differs between standard libraries.
    std::mt19937_64 rng(seed);
    const double target = static_cast<double>(rng() >> 11) * 0x1.0p-53 * total;
    double cumulative = 0.0;
    int last_possible = set.ranked[0].id;  // the last kept token with p > 0, should rounding leave target unreached
    for (size_t r = 0; r < n; ++r) {
        const RankedToken& t = set.ranked[r];
        if (t.p <= 0.0f) continue;
        cumulative += static_cast<double>(t.p);
        last_possible = t.id;
        if (cumulative > target) return t.id;
    }
    return last_possible;
}

Result<int> sample_token(const Eigen::Ref<const RowVec>& logits, const SamplingOptions& options, uint64_t seed) {
    auto set = sampling_set(logits, options);
    if (!set) return set.error();
    return sample_from(*set, seed);
}

}  // namespace attnlab
