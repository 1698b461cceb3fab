// The FFN's nonlinearity: ReLU max(0, h), GELU h·Φ(h) (erf form), GELU's tanh approximation, or
// SiLU h·σ(h) (the gate of SwiGLU).
#pragma once

#include "config.h"
#include "tensor.h"

namespace attnlab {

Tensor activation_forward(const Tensor& h, Activation kind);  // elementwise, same shape
const char* activation_formula(Activation kind);

}  // namespace attnlab
