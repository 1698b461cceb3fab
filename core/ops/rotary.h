// Rotary position embeddings (RoPE; Su et al. 2021), laid out as the Llama template's
// rotate_half: a head's D entries are D/2 pairs (x[i], x[i + D/2]) — the first half against the
// second, not neighbours — and pair i of the row at position p turns by the angle p·θ_i:
//   x'[i]       = x[i]·cos(p·θ_i) − x[i + D/2]·sin(p·θ_i)
//   x'[i + D/2] = x[i + D/2]·cos(p·θ_i) + x[i]·sin(p·θ_i)
// so a rotated query at m and key at n score q·R((n − m)θ)·k: the score depends on the offset alone.
//   θ_i = theta^(−2i/D)                      (i = 0 … D/2 − 1)
//   linear:  θ_i / factor
//   llama3:  wavelength λ_i = 2π/θ_i against the original context L = original_max_position:
//            λ_i > L/low_freq_factor  -> θ_i / factor                       (low frequencies)
//            λ_i < L/high_freq_factor -> θ_i                                (high frequencies)
//            between: (1 − s)·θ_i/factor + s·θ_i, s = (L/λ_i − low_freq_factor)/(high_freq_factor − low_freq_factor)
#pragma once

#include "config.h"
#include "tensor.h"

#include <vector>

namespace attnlab {

// (D/2,) θ_i after the scaling, as float (the reference computes them in float32).
std::vector<float> rope_inverse_frequencies(const RopeConfig& rope, int head_dim);
// The same without any scaling, to show what the scaling did.
std::vector<float> rope_unscaled_frequencies(const RopeConfig& rope, int head_dim);
// The angle of pair i at position p, rounded as the reference rounds it: p·θ_i in float.
float rope_angle(int64_t position, float inverse_frequency);

// x (H, N, D) whose row r is position first_position + r -> the rotated (H, N, D).
Tensor apply_rotary(const Tensor& x, const std::vector<float>& inverse_frequencies, int64_t first_position);
// Its backward: the rotation is orthogonal, so dL/dx is dy (H, N, D) turned back by the same angles.
Tensor apply_rotary_backward(const Tensor& dy, const std::vector<float>& inverse_frequencies, int64_t first_position);
// x (N, D), every row at the same position -> the rotated (N, D).
Tensor rotate_rows_at(const Tensor& x, const std::vector<float>& inverse_frequencies, int64_t position);

}  // namespace attnlab
