// Statistics of one row of a matrix, in double: what the explanations and the mechanisms' numbers read.
#pragma once

#include "tensor.h"

namespace attnlab {

// A row of any row-major matrix view: Tensor::row(r), or slice(h).row(r) of an (H, N, X) tensor.
using RowRef = Eigen::Ref<const RowVec>;

double row_norm(RowRef row);  // ‖x‖₂
double row_mean(RowRef row);
double row_std(RowRef row, double eps = 0);  // √(biased variance + eps)
double row_rms(RowRef row, double eps = 0);  // √(mean(x²) + eps)

}  // namespace attnlab
