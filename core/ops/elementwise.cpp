#include "ops/elementwise.h"

#include "parallel.h"

#include <atomic>
#include <cassert>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// y = op(a, b) entry by entry; y may be a itself. With non_finite, sets it to how many entries of y are NaN or ±∞.
template <class Op>
void combine_into(const Tensor& a, const Tensor& b, Tensor& y, Op op, int64_t* non_finite) {
    assert(a.shape == b.shape && y.shape == a.shape);
    constexpr float kMax = std::numeric_limits<float>::max();
    const int64_t width = a.rank() == 0 ? 1 : a.dim(-1), rows = width == 0 ? 0 : a.numel() / width;
    std::atomic<int64_t> counted{0};
    parallel_rows(rows, width, [&](int64_t first, int64_t end) {
        const float* pa = a.data.data() + first * width;
        const float* pb = b.data.data() + first * width;
        float* py = y.data.data() + first * width;
        const int64_t n = (end - first) * width;
        if (!non_finite) {
            for (int64_t i = 0; i < n; ++i) py[i] = op(pa[i], pb[i]);
            return;
        }
        int64_t piece = 0;  // |y| ≤ FLT_MAX is false exactly for NaN and ±∞, and vectorises
        for (int64_t i = 0; i < n; ++i) {
            const float v = op(pa[i], pb[i]);
            py[i] = v;
            piece += std::abs(v) <= kMax ? 0 : 1;
        }
        counted += piece;
    });
    if (non_finite) *non_finite = counted.load();
}

}  // namespace

Tensor elementwise_sum(const Tensor& a, const Tensor& b, int64_t* non_finite) {
    Tensor y = Tensor::uninitialized(a.shape);  // every entry written by combine_into
    combine_into(
        a, b, y, [](float x, float z) { return x + z; }, non_finite);
    return y;
}

void multiply_in_place(Tensor& a, const Tensor& b, int64_t* non_finite) {
    combine_into(
        a, b, a, [](float x, float z) { return x * z; }, non_finite);
}

}  // namespace attnlab
