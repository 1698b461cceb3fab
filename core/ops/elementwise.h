// Entry-by-entry sums and products of two tensors of one shape (the residual adds, SwiGLU's a ⊙ u written over a), split
// between the threads: each entry is one rounding of its own two inputs, so no split can change a bit. Each thread
// also counts the NaN and ±∞ it writes while they are in its cache, into non_finite (StepOutput::non_finite).
#pragma once

#include "tensor.h"

#include <cstdint>

namespace attnlab {

Tensor elementwise_sum(const Tensor& a, const Tensor& b, int64_t& non_finite);  // a + b
void multiply_in_place(Tensor& a, const Tensor& b, int64_t& non_finite);        // a ← a ⊙ b

}  // namespace attnlab
