// y = x·W[rows]ᵀ + b[rows]
#include "ops/linear.h"

#include <cassert>

namespace attnlab {

Tensor linear_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t row_begin, int64_t n_out) {
    assert(weight.rank() == 2 && x.rank() == 2 && x.dim(1) == weight.dim(1));
    if (n_out < 0) n_out = weight.dim(0) - row_begin;
    assert(row_begin >= 0 && row_begin + n_out <= weight.dim(0));
    const int64_t n_in = weight.dim(1);
    ConstMatMap w(weight.data.data() + row_begin * n_in, n_out, n_in);  // (out, in)
    // Computed column-major: Eigen then packs W from its contiguous rows, which is about
    // twice as fast on few-token inputs as packing it for a row-major result.
    Eigen::MatrixXf y_cols(x.dim(0), n_out);  // (N, out)
    y_cols.noalias() = x.matrix() * w.transpose();
    Tensor y({x.dim(0), n_out});  // (N, out)
    y.matrix() = y_cols;
    if (bias) {
        assert(bias->rank() == 1 && row_begin + n_out <= bias->dim(0));
        ConstRowVecMap b(bias->data.data() + row_begin, n_out);
        y.matrix().rowwise() += b;
    }
    return y;
}

}  // namespace attnlab
