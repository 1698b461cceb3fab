// Sinusoidal positional encoding of the paper (§3.5):
//   PE(pos, 2i) = sin(pos / 10000^(2i/C)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/C))
#pragma once

#include "tensor.h"

namespace attnlab {

Tensor sinusoidal_encoding(int64_t n_positions, int64_t d_model);  // (n_positions, C)

}  // namespace attnlab
