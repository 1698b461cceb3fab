// softmax(x)_j = exp(x_j − max) / Σ_k exp(x_k − max), per row.
#include "ops/softmax.h"

#include <cmath>
#include <limits>

namespace attnlab {

Tensor softmax_rows(const Tensor& x, std::vector<int64_t>* fully_masked_rows) {
    Tensor y(x.shape);
    ConstMatMap in = x.matrix();
    MatMap out = y.matrix();
    for (int64_t r = 0; r < in.rows(); ++r) {
        const float max = in.row(r).maxCoeff();
        if (max == -std::numeric_limits<float>::infinity()) {  // every key masked
            out.row(r).setZero();
            if (fully_masked_rows) fully_masked_rows->push_back(r);
            continue;
        }
        out.row(r) = (in.row(r).array() - max).exp().matrix();
        out.row(r) /= out.row(r).sum();
    }
    return y;
}

}  // namespace attnlab
