// Linear layer as nn.Linear computes it: y = x·Wᵀ + b, W stored (out, in); and as GPT-2's
// Conv1D does: y = x·W + b, W stored (in, out). And the backward of the first.
#pragma once

#include "tensor.h"

namespace attnlab {

// Columns of a wider row-major result, written in place: a product split between threads
// writes each half straight into the whole.
using OutputColumns = Eigen::Map<Mat, 0, Eigen::OuterStride<>>;

// x (N, in), weight rows [row_begin, row_begin + n_out) of W (·, in), bias entries of the same range.
// Returns (N, n_out). n_out < 0 means all rows. A packed in_proj (3C, C) is read a third at a time.
Tensor linear_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t row_begin = 0,
                      int64_t n_out = -1);
// Into y (N, n_out); with non_finite, adds to it how many outputs are NaN or ±∞ (counted as they are written).
void linear_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t row_begin, int64_t n_out,
                    OutputColumns y, int64_t* non_finite = nullptr);

// x (N, in), columns [col_begin, col_begin + n_out) of W (in, ·), read in place (not transposed),
// bias entries of the same range. Returns (N, n_out). A packed c_attn (C, 3C) is read a third at a time.
Tensor linear_in_out_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t col_begin,
                             int64_t n_out);
void linear_in_out_forward(const Tensor& x, const Tensor& weight, const Tensor* bias, int64_t col_begin, int64_t n_out,
                           OutputColumns y, int64_t* non_finite = nullptr);  // as linear_forward's

// y = x·W[rows]ᵀ + b[rows] (linear_forward with row_begin, n_out = dy's width).
// x (N, in), weight (·, in), dy (N, n_out) -> dx (N, in);
// dweight (same shape as weight) rows [row_begin, row_begin + n_out) += dyᵀ·x; dbias[rows] += Σ_rows dy.
// Accumulators left null are not wanted; a parameter used twice (tied embeddings) sums.
Tensor linear_backward(const Tensor& x, const Tensor& weight, const Tensor& dy, Tensor* dweight, Tensor* dbias,
                       int64_t row_begin = 0);

}  // namespace attnlab
