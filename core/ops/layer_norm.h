// LayerNorm over the last dimension: y = (x − mean) / √(var + ε) · γ + β  (biased variance), and its backward.
#pragma once

#include "tensor.h"

namespace attnlab {

Tensor layer_norm_forward(const Tensor& x, const Tensor& gain, const Tensor& bias, float eps);  // (N, C) -> (N, C)

// LayerNorm over the last dim (biased variance, as layer_norm_forward).
// x (N, C), gain (C), dy (N, C) -> dx (N, C); dgain += Σ dy·x̂, dbias += Σ dy (null = not wanted).
Tensor layer_norm_backward(const Tensor& x, const Tensor& gain, float eps, const Tensor& dy, Tensor* dgain,
                           Tensor* dbias);

}  // namespace attnlab
