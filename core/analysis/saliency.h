// Saliency of the input tokens, as LIT and ecco show it: from each token's embedding x[t] (C,) and the loss's
// gradient there ∂L/∂x[t], the gradient's norm ‖∂L/∂x[t]‖₂ (how strongly the loss depends on the token) and
// gradient × input ∂L/∂x[t]·x[t] (the first-order change in the loss were the embedding removed, with its sign).
#pragma once

#include "tensor.h"

#include <vector>

namespace attnlab {

struct TokenSaliency {
    std::vector<float> gradient_norm;         // (N,) ‖∂L/∂x[t]‖₂
    std::vector<float> gradient_times_input;  // (N,) ∂L/∂x[t]·x[t]
};

// x and d_x (N, C), the same shape.
TokenSaliency token_saliency(const Tensor& x, const Tensor& d_x);

}  // namespace attnlab
