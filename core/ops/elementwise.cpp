#include "ops/elementwise.h"

#include "ops/non_finite.h"
#include "parallel.h"

#include <atomic>
#include <cassert>

namespace attnlab {

namespace {

// y = op(a, b) entry by entry; y may be a itself. Returns how many entries of y are NaN or ±∞.
template <class Op>
int64_t combine_into(const Tensor& a, const Tensor& b, Tensor& y, Op op) {
    assert(a.shape == b.shape && y.shape == a.shape);
    const int64_t width = a.rank() == 0 ? 1 : a.dim(-1), rows = width == 0 ? 0 : a.numel() / width;
    std::atomic<int64_t> counted{0};
    parallel_rows(rows, width, [&](int64_t first, int64_t end) {
        const float* pa = a.data.data() + first * width;
        const float* pb = b.data.data() + first * width;
        float* py = y.data.data() + first * width;
        int64_t piece = 0;
        for (int64_t i = 0, n = (end - first) * width; i < n; ++i) {
            py[i] = op(pa[i], pb[i]);
            piece += non_finite_at(py[i]);
        }
        counted += piece;
    });
    return counted.load();
}

}  // namespace

Tensor elementwise_sum(const Tensor& a, const Tensor& b, int64_t& non_finite) {
    Tensor y = Tensor::uninitialized(a.shape);  // every entry written by combine_into
    non_finite = combine_into(a, b, y, [](float x, float z) { return x + z; });
    return y;
}

void multiply_in_place(Tensor& a, const Tensor& b, int64_t& non_finite) {
    non_finite = combine_into(a, b, a, [](float x, float z) { return x * z; });
}

}  // namespace attnlab
