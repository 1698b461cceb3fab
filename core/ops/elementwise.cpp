#include "ops/elementwise.h"

#include "parallel.h"

#include <cassert>

namespace attnlab {

namespace {

// y = op(a, b) entry by entry; y may be a itself.
template <class Op>
void combine_into(const Tensor& a, const Tensor& b, Tensor& y, Op op) {
    assert(a.shape == b.shape && y.shape == a.shape);
    const int64_t width = a.rank() == 0 ? 1 : a.dim(-1), rows = width == 0 ? 0 : a.numel() / width;
    parallel_rows(rows, width, [&](int64_t first, int64_t end) {
        const float* pa = a.data.data() + first * width;
        const float* pb = b.data.data() + first * width;
        float* py = y.data.data() + first * width;
        for (int64_t i = 0, n = (end - first) * width; i < n; ++i) py[i] = op(pa[i], pb[i]);
    });
}

template <class Op>
Tensor combine(const Tensor& a, const Tensor& b, Op op) {
    Tensor y = Tensor::uninitialized(a.shape);  // every entry written by combine_into
    combine_into(a, b, y, op);
    return y;
}

constexpr auto kTimes = [](float x, float y) { return x * y; };

}  // namespace

Tensor elementwise_sum(const Tensor& a, const Tensor& b) {
    return combine(a, b, [](float x, float y) { return x + y; });
}

void multiply_in_place(Tensor& a, const Tensor& b) { combine_into(a, b, a, kTimes); }

}  // namespace attnlab
