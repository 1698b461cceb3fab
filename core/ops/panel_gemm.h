// y = x·W[:, c0 : c0 + n] for GPT-2's Conv1D weights, W row-major (in, ld), without Eigen's packing.
// Eigen packs such a W a 48-float column strip at a time, stepping a whole row (9-12 KB for GPT-2
// small) between reads: a quarter of a GPT-2 pass went to it. Here up to eight strips (1 MB) are copied at once
// from each row's contiguous stretch into an L2-sized buffer, and a register-blocked kernel
// (8 tokens × 48 outputs) multiplies every token by them. Only with AVX-512, whose 32 vector
// registers the kernel needs; elsewhere panel_gemm_available() is false and Eigen does the work.
#pragma once

#include <cstdint>

namespace attnlab {

bool panel_gemm_available();

// y (N, n) row-major with row stride ldy  =  x (N, in) row-major  ·  W[:, c0 : c0 + n], W (in, ldw) row-major.
// Overwrites y. Requires panel_gemm_available().
void panel_gemm_in_out(const float* x, int64_t N, int64_t in, const float* W, int64_t ldw, int64_t c0, int64_t n,
                       float* y, int64_t ldy);

}  // namespace attnlab
