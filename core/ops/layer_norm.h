// LayerNorm over the last dimension: y = (x − mean) / √(var + ε) · γ + β  (biased variance).
#pragma once

#include "tensor.h"

namespace attnlab {

Tensor layer_norm_forward(const Tensor& x, const Tensor& gain, const Tensor& bias, float eps);  // (N, C) -> (N, C)

}  // namespace attnlab
