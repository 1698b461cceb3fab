// The FFN's nonlinearity: ReLU max(0, h), GELU h·Φ(h) (erf form), GELU's tanh approximation, or
// SiLU h·σ(h) (the gate of SwiGLU); and their derivatives.
#pragma once

#include "config.h"
#include "tensor.h"

namespace attnlab {

Tensor activation_forward(const Tensor& h, Activation kind);  // elementwise, same shape
const char* activation_formula(Activation kind);

// Elementwise: h is the activation's input (pre-activation), dy (same shape) -> dh.
// ReLU'(0) = 0, as PyTorch. GELU (erf) and GELU-tanh use their exact derivatives.
Tensor activation_backward(const Tensor& h, const Tensor& dy, Activation kind);

}  // namespace attnlab
