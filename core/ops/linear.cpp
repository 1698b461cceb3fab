// y = x·W[rows]ᵀ + b[rows]  (W (out, in)),  y = x·W[:, cols] + b[cols]  (W (in, out)), both by ops/gemm.h;
// and the backward of the first, dx = dy·W[rows], by Eigen. A BF16 weight (Tensor::bf16) is read as it is by the
// gemm's BF16 variants, which widen W's panels as they pack them: the same bits as F32 on the widened weight.
#include "ops/linear.h"

#include "ops/gemm.h"

#include <cassert>

namespace attnlab {

namespace {

OutputColumns whole(Tensor& y) {
    return OutputColumns(y.data.data(), y.dim(0), y.dim(1), Eigen::OuterStride<>(y.dim(1)));
}

}  // namespace

void linear_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t row_begin, int64_t n_out,
                    OutputColumns y, int64_t* non_finite) {
    assert(weight.rank() == 2 && x.rank() == 2 && x.dim(1) == weight.dim(1));
    assert(row_begin >= 0 && row_begin + n_out <= weight.dim(0) && y.rows() == x.dim(0) && y.cols() == n_out);
    assert(!bias || (bias->rank() == 1 && row_begin + n_out <= bias->dim(0)));
    const int64_t n_in = weight.dim(1);
    const GemmEpilogue epilogue{bias ? bias->data.data() + row_begin : nullptr, non_finite};
    if (weight.is_bf16())
        gemm_out_in_bf16(x.data.data(), x.dim(0), n_in, n_in, weight.bf16.data() + row_begin * n_in, n_in, n_out,
                         y.data(), y.outerStride(), epilogue);
    else
        gemm_out_in(x.data.data(), x.dim(0), n_in, n_in, weight.data.data() + row_begin * n_in, n_in, n_out, y.data(),
                    y.outerStride(), epilogue);
}

Tensor linear_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t row_begin, int64_t n_out) {
    if (n_out < 0) n_out = weight.dim(0) - row_begin;
    Tensor y = Tensor::uninitialized({x.dim(0), n_out});  // (N, out), overwritten by gemm
    linear_forward(x, weight, bias, row_begin, n_out, whole(y));
    return y;
}

void linear_in_out_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t col_begin, int64_t n_out,
                           OutputColumns y, int64_t* non_finite) {
    assert(weight.rank() == 2 && x.rank() == 2 && x.dim(1) == weight.dim(0));
    assert(col_begin >= 0 && n_out >= 0 && col_begin + n_out <= weight.dim(1) && y.rows() == x.dim(0) &&
           y.cols() == n_out);
    assert(!bias || (bias->rank() == 1 && col_begin + n_out <= bias->dim(0)));
    const GemmEpilogue epilogue{bias ? bias->data.data() + col_begin : nullptr, non_finite};
    if (weight.is_bf16())
        gemm_in_out_bf16(x.data.data(), x.dim(0), x.dim(1), x.dim(1), weight.bf16.data() + col_begin, weight.dim(1),
                         n_out, y.data(), y.outerStride(), epilogue);
    else
        gemm_in_out(x.data.data(), x.dim(0), x.dim(1), x.dim(1), weight.data.data() + col_begin, weight.dim(1), n_out,
                    y.data(), y.outerStride(), epilogue);
}

Tensor linear_in_out_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t col_begin,
                             int64_t n_out) {
    Tensor y({x.dim(0), n_out});  // (N, out)
    linear_in_out_forward(x, weight, bias, col_begin, n_out, whole(y));
    return y;
}

Tensor linear_backward(const Tensor& x, const Tensor& weight, const Tensor& dy, Tensor* dweight, Tensor* dbias,
                       int64_t row_begin) {
    assert(x.rank() == 2 && weight.rank() == 2 && dy.rank() == 2);
    assert(x.dim(1) == weight.dim(1) && dy.dim(0) == x.dim(0));
    const int64_t n_in = weight.dim(1), n_out = dy.dim(1);
    assert(row_begin >= 0 && row_begin + n_out <= weight.dim(0));
    ConstMatMap xm = x.matrix();    // (N, in)
    ConstMatMap dym = dy.matrix();  // (N, out)

    // dx = dy·W[rows]   (N, in); a BF16 W by the gemm, W[rows] read as (out, in) = (K, n)
    Tensor dx({x.dim(0), n_in});
    if (weight.is_bf16())
        gemm_in_out_bf16(dy.data.data(), dy.dim(0), n_out, n_out, weight.bf16.data() + row_begin * n_in, n_in, n_in,
                         dx.data.data(), n_in);
    else
        dx.matrix().noalias() = dym * ConstMatMap(weight.data.data() + row_begin * n_in, n_out, n_in);
    if (dweight) {
        assert(dweight->shape == weight.shape);
        // dW[rows] += dyᵀ·x   (out, in)
        MatMap dw(dweight->data.data() + row_begin * n_in, n_out, n_in);
        dw.noalias() += dym.transpose() * xm;
    }
    if (dbias) {
        assert(dbias->rank() == 1 && row_begin + n_out <= dbias->dim(0));
        // db[rows] += Σ_rows dy   (out)
        RowVecMap db(dbias->data.data() + row_begin, n_out);
        db += dym.colwise().sum();
    }
    return dx;
}

}  // namespace attnlab
