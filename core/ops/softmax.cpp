// softmax(x)_j = exp(x_j − max) / Σ_k exp(x_k − max), per row.
#include "ops/softmax.h"

#include <cmath>
#include <limits>
#include <thread>

namespace attnlab {

namespace {

// At least this many entries: the rows are split between two threads (GPT-2's 64 × 50257
// probabilities: 21 ms on one core). Rows are independent, so the split cannot change a number.
constexpr int64_t kSplitEntries = int64_t{1} << 20;

// Rows [begin, end) of in into out; the fully masked ones are appended to *masked.
void softmax_range(ConstMatMap in, MatMap out, int64_t begin, int64_t end, std::vector<int64_t>* masked) {
    for (int64_t r = begin; r < end; ++r) {
        const float max = in.row(r).maxCoeff();
        if (max == -std::numeric_limits<float>::infinity()) {  // every key masked
            out.row(r).setZero();
            masked->push_back(r);
            continue;
        }
        out.row(r) = (in.row(r).array() - max).exp().matrix();
        out.row(r) /= out.row(r).sum();
    }
}

}  // namespace

Tensor softmax_rows(const Tensor& x, std::vector<int64_t>* fully_masked_rows) {
    Tensor y(x.shape);
    ConstMatMap in = x.matrix();
    MatMap out = y.matrix();
    std::vector<int64_t> first, second;  // fully masked rows of each half
    const int64_t rows = in.rows(), half = x.numel() >= kSplitEntries ? rows / 2 : rows;
    std::thread helper;
    if (half < rows) helper = std::thread([&] { softmax_range(in, out, half, rows, &second); });
    softmax_range(in, out, 0, half, &first);
    if (helper.joinable()) helper.join();
    if (fully_masked_rows) {
        fully_masked_rows->insert(fully_masked_rows->end(), first.begin(), first.end());
        fully_masked_rows->insert(fully_masked_rows->end(), second.begin(), second.end());
    }
    return y;
}

}  // namespace attnlab
