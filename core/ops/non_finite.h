// Counting NaN and ±∞ in a step's output, on every thread: at 1024 tokens each attention stage holds
// 12 × 1024 × 1024 floats, and a count on one core took a tenth of the whole pass.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace attnlab {

// 1 for NaN and ±∞, else 0: |x| ≤ FLT_MAX is false exactly for those, and unlike std::isfinite it vectorises.
inline int64_t non_finite_at(float x) { return std::abs(x) <= std::numeric_limits<float>::max() ? 0 : 1; }

// Entries of x (n,) that are NaN or ±∞.
int64_t count_non_finite(const float* x, size_t n);

// Entries of the block x (rows, cols), rows `stride` apart, that are NaN or ±∞; on the calling thread.
int64_t count_non_finite_block(const float* x, int64_t rows, int64_t cols, int64_t stride);

// Entries of masked (heads, cells) that are NaN or ±∞, but for a −∞ in a cell the mask (cells,) forbids
// (mask[c] == 0): that one is the mask's own doing.
int64_t count_non_finite_unmasked(const float* masked, const float* mask, size_t heads, size_t cells);

}  // namespace attnlab
