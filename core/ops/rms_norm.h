// RMSNorm over the last dimension, as the Llama template normalises: y = x / √(mean(x²) + ε) · γ.
// No mean is taken out and there is no β.
#pragma once

#include "tensor.h"

namespace attnlab {

// x (…, W), gain (W,) -> (…, W): each row of the last dimension on its own (a head's row of Q or K
// as well as a token's row of the stream).
Tensor rms_norm_forward(const Tensor& x, const Tensor& gain, float eps);
// Its backward: x and dy = dL/dy (…, W) -> dL/dx (…, W); adds dL/dγ = Σ_rows dy ⊙ x/rms into dgain (W,).
Tensor rms_norm_backward(const Tensor& x, const Tensor& gain, float eps, const Tensor& dy, Tensor& dgain);

}  // namespace attnlab
