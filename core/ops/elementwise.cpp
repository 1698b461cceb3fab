#include "ops/elementwise.h"

#include "parallel.h"

#include <cassert>

namespace attnlab {

namespace {

template <class Op>
Tensor combine(const Tensor& a, const Tensor& b, Op op) {
    assert(a.shape == b.shape);
    Tensor y = Tensor::uninitialized(a.shape);  // every entry written below
    const int64_t width = a.rank() == 0 ? 1 : a.dim(-1), rows = width == 0 ? 0 : a.numel() / width;
    parallel_rows(rows, width, [&](int64_t first, int64_t end) {
        const float* pa = a.data.data() + first * width;
        const float* pb = b.data.data() + first * width;
        float* py = y.data.data() + first * width;
        for (int64_t i = 0, n = (end - first) * width; i < n; ++i) py[i] = op(pa[i], pb[i]);
    });
    return y;
}

}  // namespace

Tensor elementwise_sum(const Tensor& a, const Tensor& b) {
    return combine(a, b, [](float x, float y) { return x + y; });
}

Tensor elementwise_product(const Tensor& a, const Tensor& b) {
    return combine(a, b, [](float x, float y) { return x * y; });
}

}  // namespace attnlab
