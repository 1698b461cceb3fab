// Entry-by-entry sums and products of two tensors of one shape (the residual adds, SwiGLU's a ⊙ u written over a), split
// between the threads: each entry is one rounding of its own two inputs, so no split can change a bit.
#pragma once

#include "tensor.h"

namespace attnlab {

Tensor elementwise_sum(const Tensor& a, const Tensor& b);  // a + b
void multiply_in_place(Tensor& a, const Tensor& b);        // a ← a ⊙ b

}  // namespace attnlab
