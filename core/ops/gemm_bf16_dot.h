// The dot_bf16 products of gemm_in_out_bf16 / gemm_out_in_bf16 (gemm_bf16_products.h): x rounded to BF16 and paired
// with W's BF16 values by vdpbf16ps, summed in F32. Compiled for x86-64 only, its functions built for AVX-512 F, BW, VL
// and BF16 by target attributes (the rest of the program keeps the build's -march), and called only where
// cpu_has_bf16_dot() says the CPU runs them. gemm.cpp applies the epilogue after them.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ATTNLAB_BF16_DOT 1
#else
#define ATTNLAB_BF16_DOT 0  // WebAssembly and other targets: exact products only
#endif

#if ATTNLAB_BF16_DOT
#include <cstdint>

namespace attnlab {

// y (N, n) = bf16(x) (N, K) · W, W (K, n) with row stride ldw ≥ n (in_out) or W (n, K) with ldw ≥ K (out_in,
// y = bf16(x)·Wᵀ). x row stride ldx ≥ K, y row stride ldy ≥ n; overwrites y[i][0 : n].
void gemm_in_out_bf16_dot(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                          float* y, int64_t ldy);
void gemm_out_in_bf16_dot(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                          float* y, int64_t ldy);

}  // namespace attnlab
#endif
