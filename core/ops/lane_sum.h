// Sums and elementwise maps whose result for a value does not depend on where it lies in memory.
// Eigen's vectorised loops peel scalars until an address is aligned and finish with a scalar tail,
// so a row's sum, or a value's tanh, changes in the last bits with the row's address and length.
// These fix the order instead: a row computed alone, inside a longer tensor or on another thread
// gives the same bits (the stepper's row-by-row re-run keeps old rows on that promise).
#pragma once

#include <Eigen/Core>

#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

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

// The largest of x[0 .. n) as std::max takes it (a NaN is passed over), −∞ for n = 0: 16 lanes side by side in one
// packet (Eigen's max keeps std::max's order of arguments, so a NaN is passed over there too; a max is exact, so the
// order cannot change it).
inline float lane_max(const float* x, int64_t n) {
    using Packet16 = Eigen::Array<float, kLanes, 1>;
    constexpr float kMinusInf = -std::numeric_limits<float>::infinity();
    Packet16 lanes = Packet16::Constant(kMinusInf);
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) lanes = lanes.max(Eigen::Map<const Packet16>(x + i));
    float largest = kMinusInf;
    for (int64_t l = 0; l < kLanes; ++l) largest = std::max(largest, lanes[l]);
    for (; i < n; ++i) largest = std::max(largest, x[i]);
    return largest;
}

// Whether x[0 .. 16) all equal `value`: one vector compare where the CPU has one (Eigen's .all() of a comparison
// tests the 16 entries one by one).
inline bool all_16_equal(const float* x, float value) {
#if defined(__AVX512F__)
    return _mm512_cmp_ps_mask(_mm512_loadu_ps(x), _mm512_set1_ps(value), _CMP_EQ_OQ) == 0xFFFF;
#elif defined(__AVX__)
    const __m256 v = _mm256_set1_ps(value);
    const __m256 both = _mm256_and_ps(_mm256_cmp_ps(_mm256_loadu_ps(x), v, _CMP_EQ_OQ),
                                      _mm256_cmp_ps(_mm256_loadu_ps(x + 8), v, _CMP_EQ_OQ));
    return _mm256_movemask_ps(both) == 0xFF;
#elif defined(__wasm_simd128__)
    const v128_t v = wasm_f32x4_splat(value);
    const v128_t low = wasm_v128_and(wasm_f32x4_eq(wasm_v128_load(x), v), wasm_f32x4_eq(wasm_v128_load(x + 4), v));
    const v128_t high = wasm_v128_and(wasm_f32x4_eq(wasm_v128_load(x + 8), v), wasm_f32x4_eq(wasm_v128_load(x + 12), v));
    return wasm_i32x4_all_true(wasm_v128_and(low, high));
#else
    bool all = true;
    for (int64_t l = 0; l < kLanes; ++l) all &= x[l] == value;
    return all;
#endif
}

// Entries of x[0 .. n) up to the last one that is not `value` (0 when all are): a run of `value` at the end is
// skipped 16 entries at a time (a causal row's masked half: one at a time, this scan cost as much as the rest of a
// softmax row; 16 scalar compares at a time, still half of an attention softmax's time).
inline int64_t length_before_run_of(const float* x, int64_t n, float value) {
    while (n >= kLanes && all_16_equal(x + n - kLanes, value)) n -= kLanes;
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
