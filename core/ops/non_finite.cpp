// Branch-free counts (they vectorise), split between the threads in whole chunks: a sum of integers, so the
// split cannot change it.
#include "ops/non_finite.h"

#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// At least this many entries (parallel.h): the count is split between the threads.
constexpr int64_t kSplitEntries = kSplitRowEntries;
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

int64_t count_range(const float* x, int64_t begin, int64_t end) {
    int64_t n = 0;
    for (int64_t i = begin; i < end; ++i) n += non_finite_at(x[i]);
    return n;
}

// Sums count(begin, end) over [0, n), in chunks on every thread when n is large.
template <class Count>
int64_t split_count(int64_t n, int64_t entries, Count count) {
    std::atomic<int64_t> total{0};
    parallel_for(0, n, entries >= kSplitEntries ? 1 : std::max<int64_t>(n, 1),
                 [&](int64_t begin, int64_t end) { total += count(begin, end); });
    return total.load();
}

}  // namespace

int64_t count_non_finite(const float* x, size_t n) {
    // Chunks of 64K entries, so that both threads get work.
    constexpr int64_t kChunk = int64_t{1} << 16;
    const int64_t size = static_cast<int64_t>(n), chunks = (size + kChunk - 1) / kChunk;
    return split_count(chunks, size, [&](int64_t begin, int64_t end) {
        return count_range(x, begin * kChunk, std::min(end * kChunk, size));
    });
}

int64_t count_non_finite_block(const float* x, int64_t rows, int64_t cols, int64_t stride) {
    int64_t n = 0;
    for (int64_t r = 0; r < rows; ++r) n += count_range(x + r * stride, 0, cols);
    return n;
}

int64_t count_non_finite_unmasked(const float* masked, const float* mask, size_t heads, size_t cells) {
    const int64_t c = static_cast<int64_t>(cells);
    return split_count(static_cast<int64_t>(heads), static_cast<int64_t>(heads * cells),
                       [&](int64_t begin, int64_t end) {
                           int64_t n = 0;
                           for (int64_t h = begin; h < end; ++h) {
                               const float* x = masked + h * c;
                               for (int64_t i = 0; i < c; ++i) {
                                   const bool bad = non_finite_at(x[i]) != 0;
                                   const bool by_mask = x[i] == kMinusInf && mask[i] == 0.0f;
                                   n += bad & !by_mask ? 1 : 0;
                               }
                           }
                           return n;
                       });
}

}  // namespace attnlab
