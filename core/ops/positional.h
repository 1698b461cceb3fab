// Sinusoidal positional encoding of the paper (§3.5): pair i of frequency ω_i = 1 / 10000^(2i/C) holds
//   sin(pos·ω_i) and cos(pos·ω_i),
// at columns 2i and 2i + 1 (interleaved, the paper's), or at columns i and ⌈C/2⌉ + i (halves, Marian's).
#pragma once

#include "config.h"
#include "tensor.h"

namespace attnlab {

Tensor sinusoidal_encoding(int64_t n_positions, int64_t d_model,
                           SinusoidLayout layout = SinusoidLayout::interleaved);  // (n_positions, C)

// What column j of the table holds: the sine or the cosine of pair i, whose angle is pos / 10000^(2i/C).
struct SinusoidColumn {
    int64_t pair = 0;
    bool sine = true;
};
SinusoidColumn sinusoid_column(int64_t j, int64_t d_model, SinusoidLayout layout);

}  // namespace attnlab
