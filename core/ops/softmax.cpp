// softmax(x)_j = exp(x_j − max) / Σ_k exp(x_k − max), per row.
//
// A row's bits depend on the row alone (ops/lane_sum.h): not on where it lies in memory, nor on a run
// of masked keys at its end, which get exactly 0 without entering the sum. So a query row keeps its
// bits when the sequence grows by keys it cannot see, as the stepper's row-by-row re-run needs.
// The backward, dx = y ⊙ (dy − Σ_j dy·y) per row, the rows split between the threads.
#include "ops/softmax.h"

#include "ops/lane_sum.h"
#include "parallel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// y (n,) = softmax(x (n,)); false when every entry is −∞ (then y is all zeros). The exponentials are scaled by
// 1 / sum, as PyTorch's CPU softmax does (a division per entry took a fifth of the attention softmax's time).
bool softmax_row(const float* x, float* y, int64_t n) {
    const int64_t live = length_before_run_of(x, n, kMinusInf);  // the entries after it get exactly 0
    std::fill(y + live, y + n, 0.0f);
    if (live == 0) return false;
    const float max = lane_max(x, live);
    map_in_blocks(x, y, live, kMinusInf, [max](const auto& v) { return (v - max).exp(); });
    const float inverse_sum = 1.0f / lane_sum(y, live);
    for (int64_t j = 0; j < live; ++j) y[j] *= inverse_sum;
    return true;
}

// y = softmax(x) row by row, the rows split between the threads from kSplitRowEntries entries (parallel.h; a SmolLM2
// layer's 9 × 256 × 256 attention weights: 0.7 ms on one core); y may be x itself (a row reads its entries before
// it writes them). Rows are independent, so the split cannot change a number.
void softmax_into(const Tensor& x, Tensor& y, std::vector<int64_t>* fully_masked_rows) {
    const int64_t n = x.dim(-1);
    const int64_t rows = n == 0 ? 0 : x.numel() / n;
    std::vector<char> masked(static_cast<size_t>(rows), 0);  // (rows,)
    parallel_rows(rows, n, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r)
            masked[static_cast<size_t>(r)] = !softmax_row(x.data.data() + r * n, y.data.data() + r * n, n);
    });
    if (fully_masked_rows)
        for (int64_t r = 0; r < rows; ++r)
            if (masked[static_cast<size_t>(r)]) fully_masked_rows->push_back(r);
}

// dx = y ⊙ (dy − Σ_j dy·y) for one row of n; the sum in 16 lanes in a fixed order (ops/lane_sum.h), so a row's
// bits depend on the row alone.
void softmax_backward_row(const float* y, const float* dy, float* dx, int64_t n) {
    float lanes[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int64_t l = 0; l < kLanes; ++l) lanes[l] += y[i + l] * dy[i + l];
    for (int64_t l = 0; i + l < n; ++l) lanes[l] += y[i + l] * dy[i + l];
    for (int64_t width = kLanes / 2; width > 0; width /= 2)
        for (int64_t l = 0; l < width; ++l) lanes[l] += lanes[l + width];
    const float dot = lanes[0];
    for (int64_t j = 0; j < n; ++j) dx[j] = y[j] * (dy[j] - dot);
}

}  // namespace

Tensor softmax_rows(const Tensor& x, std::vector<int64_t>* fully_masked_rows) {
    Tensor y = Tensor::uninitialized(x.shape);  // every row written whole by softmax_row
    softmax_into(x, y, fully_masked_rows);
    return y;
}

void softmax_rows_in_place(Tensor& x, std::vector<int64_t>* fully_masked_rows) {
    softmax_into(x, x, fully_masked_rows);
}

Tensor softmax_rows_backward(const Tensor& y, const Tensor& dy) {
    assert(y.rank() >= 1 && y.shape == dy.shape);
    Tensor dx = Tensor::uninitialized(y.shape);  // every row written below
    // An all-zero row of y (fully masked) gives y ⊙ (…) = 0. Rows split between the threads, as the forward's.
    const int64_t n = y.dim(-1), rows = n == 0 ? 0 : y.numel() / n;
    parallel_rows(rows, n, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r)
            softmax_backward_row(y.data.data() + r * n, dy.data.data() + r * n, dx.data.data() + r * n, n);
    });
    return dx;
}

}  // namespace attnlab
