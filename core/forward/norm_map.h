// A NormParams' tensors applied as the config's norm: LayerNorm (γ, β) or RMSNorm (γ alone). The one
// place that choice is made for the forward pass and for the analyses that replay part of it.
#pragma once

#include "forward/step.h"
#include "param_names.h"
#include "weights.h"

namespace attnlab {

Tensor norm_forward(const ModelConfig& config, const Weights& weights, const NormParams& norm,
                    const Tensor& x);  // (N, C) -> (N, C)
// Its backward: x, dy (N, C) -> dL/dx (N, C); adds dL/dγ (and dL/dβ) into grads.
Tensor norm_backward(const ModelConfig& config, const Weights& weights, const NormParams& norm, const Tensor& x,
                     const Tensor& dy, ParamGrads& grads);

}  // namespace attnlab
