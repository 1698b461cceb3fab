// Rows ranked again only where their logits changed, found by a fingerprint of each row's bits.
#include "prediction_rows.h"

#include "parallel.h"

#include <algorithm>
#include <cstring>

namespace attnlab::gui {

namespace {

// FNV-1a over a row's float bits: equal rows give equal prints; a changed row a different one but by a 2^-64 chance.
uint64_t fingerprint(const float* row, int64_t n) {
    uint64_t h = 14695981039346656037ull;
    for (int64_t j = 0; j < n; ++j) {
        uint32_t bits = 0;
        std::memcpy(&bits, row + j, sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
    }
    return h;
}

bool same_options(const SamplingOptions& a, const SamplingOptions& b) {
    return a.temperature == b.temperature && a.top_k == b.top_k && a.top_p == b.top_p && a.excluded == b.excluded;
}

}  // namespace

const std::vector<PositionPrediction>& PredictionRows::update(const Tensor& logits, const std::vector<int>& next,
                                                              const SamplingOptions& options, bool sampling,
                                                              int n_listed, int64_t rows_kept) {
    const int64_t n = logits.dim(0), v = logits.dim(1);  // (N, V)
    const bool options_kept = same_options(options, options_) && sampling == sampling_ && n_listed == n_listed_;
    const int64_t vouched = std::clamp<int64_t>(rows_kept, 0, std::min<int64_t>(n, std::ssize(fingerprints_)));
    std::vector<uint64_t> prints(static_cast<size_t>(n));
    std::copy_n(fingerprints_.begin(), vouched, prints.begin());
    parallel_for(vouched, n, 16, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r)
            prints[static_cast<size_t>(r)] = fingerprint(logits.data.data() + r * v, v);
    });
    std::vector<int64_t> stale;  // rows to rank again
    for (int64_t r = 0; r < n; ++r) {
        const size_t i = static_cast<size_t>(r);
        const int next_r = i < next.size() ? next[i] : -1;
        if (!options_kept || i >= fingerprints_.size() || prints[i] != fingerprints_[i] || next_r != next_[i])
            stale.push_back(r);
    }
    rows_.resize(static_cast<size_t>(n));
    parallel_for(0, static_cast<int64_t>(stale.size()), 1, [&](int64_t begin, int64_t end) {
        for (int64_t k = begin; k < end; ++k) {
            const int64_t r = stale[static_cast<size_t>(k)];
            const size_t i = static_cast<size_t>(r);
            rows_[i] = predict_row(logits.row(r), options, sampling, i < next.size() ? next[i] : -1, n_listed);
        }
    });
    fingerprints_ = std::move(prints);
    next_.assign(static_cast<size_t>(n), -1);
    std::copy_n(next.begin(), std::min(next.size(), next_.size()), next_.begin());
    options_ = options;
    sampling_ = sampling;
    n_listed_ = n_listed;
    last_ranked_ = stale.size();
    return rows_;
}

}  // namespace attnlab::gui
