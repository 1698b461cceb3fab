// softmax(x)_j = exp(x_j − max) / Σ_k exp(x_k − max), per row.
#include "ops/softmax.h"

#include "parallel.h"

#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// At least this many entries: the rows are split between the threads (GPT-2's 64 × 50257
// probabilities: 21 ms on one core). Rows are independent, so the split cannot change a number.
constexpr int64_t kSplitEntries = int64_t{1} << 20;

// Rows [begin, end) of in into out; a fully masked row gets masked[r] = 1.
void softmax_range(ConstMatMap in, MatMap out, int64_t begin, int64_t end, std::vector<char>& masked) {
    for (int64_t r = begin; r < end; ++r) {
        const float max = in.row(r).maxCoeff();
        if (max == -std::numeric_limits<float>::infinity()) {  // every key masked
            out.row(r).setZero();
            masked[static_cast<size_t>(r)] = 1;
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
    const int64_t rows = in.rows();
    std::vector<char> masked(static_cast<size_t>(rows), 0);  // (rows,)
    const int64_t grain = x.numel() >= kSplitEntries ? 1 : std::max<int64_t>(rows, 1);
    parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) { softmax_range(in, out, begin, end, masked); });
    if (fully_masked_rows)
        for (int64_t r = 0; r < rows; ++r)
            if (masked[static_cast<size_t>(r)]) fully_masked_rows->push_back(r);
    return y;
}

}  // namespace attnlab
