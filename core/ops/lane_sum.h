// Sums and elementwise maps whose result for a value does not depend on where it lies in memory.
// Eigen's vectorised loops peel scalars until an address is aligned and finish with a scalar tail,
// so a row's sum, or a value's tanh, changes in the last bits with the row's address and length.
// These fix the order instead: a row computed alone, inside a longer tensor or on another thread
// gives the same bits (the stepper's row-by-row re-run keeps old rows on that promise).
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace attnlab {

inline constexpr int64_t kLanes = 16;  // Eigen's widest packet of floats; a whole number of any narrower one

// Σ x[0 .. n): lane l adds x[l], x[l + 16], … in order, then the lanes are added pairwise in a fixed tree.
inline float lane_sum(const float* x, int64_t n) {
    float lanes[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int64_t l = 0; l < kLanes; ++l) lanes[l] += x[i + l];
    for (int64_t l = 0; i + l < n; ++l) lanes[l] += x[i + l];
    for (int64_t width = kLanes / 2; width > 0; width /= 2)
        for (int64_t l = 0; l < width; ++l) lanes[l] += lanes[l + width];
    return lanes[0];
}

// The largest of x[0 .. n) (of |x| with kMagnitude) as std::max takes it (a NaN is passed over), −∞ for n = 0:
// 16 lanes side by side in one packet (Eigen's max keeps std::max's order of arguments, so a NaN is passed over
// there too; a max is exact, so the order cannot change it).
template <bool kMagnitude = false>
inline float lane_max(const float* x, int64_t n) {
    using Packet16 = Eigen::Array<float, kLanes, 1>;
    constexpr float kMinusInf = -std::numeric_limits<float>::infinity();
    Packet16 lanes = Packet16::Constant(kMinusInf);
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        const Eigen::Map<const Packet16> block(x + i);
        if constexpr (kMagnitude)
            lanes = lanes.max(block.abs());
        else
            lanes = lanes.max(block);
    }
    float largest = kMinusInf;
    for (int64_t l = 0; l < kLanes; ++l) largest = std::max(largest, lanes[l]);
    for (; i < n; ++i) largest = std::max(largest, kMagnitude ? std::abs(x[i]) : x[i]);
    return largest;
}

// Entries of x[0 .. n) up to the last one that is not `value` (0 when all are): a run of `value` at the end is
// skipped 16 entries at a time (a causal row's masked half: one at a time, this scan cost as much as the rest of a
// softmax row).
inline int64_t length_before_run_of(const float* x, int64_t n, float value) {
    using Packet16 = Eigen::Array<float, kLanes, 1>;
    while (n >= kLanes && (Eigen::Map<const Packet16>(x + n - kLanes) == value).all()) n -= kLanes;
    while (n > 0 && x[n - 1] == value) --n;
    return n;
}

// y[0 .. n) = f(x[0 .. n)) with f an Eigen array expression of a 16-float block, evaluated on whole aligned
// blocks only (the last one padded with `pad`), so every value goes through the same packet code.
// Whole blocks are read and written where they lie (the same packet code on the same 16 values, whatever the
// address); the last, partial one through a padded copy. x and y may be the same array.
template <class Block>
void map_in_blocks(const float* x, float* y, int64_t n, float pad, const Block& f) {
    using Packet16 = Eigen::Array<float, kLanes, 1>;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) Eigen::Map<Packet16>(y + i) = f(Eigen::Map<const Packet16>(x + i));
    if (i == n) return;
    alignas(64) float in[kLanes];
    const int64_t m = n - i;
    std::copy_n(x + i, m, in);
    std::fill(in + m, in + kLanes, pad);
    const Packet16 out = f(Eigen::Map<const Packet16, Eigen::Aligned64>(in));
    std::copy_n(out.data(), m, y + i);
}

}  // namespace attnlab
