// The one matrix product behind every linear map: y = x·W for (in, out) weights (GPT-2's Conv1D) and
// y = x·Wᵀ for (out, in) ones (nn.Linear, GPT-2's tied unembedding), all row-major with row strides.
//
// The contract: every output is one fused multiply-add chain over k in order,
//     acc = 0;  for k in 0 .. K-1:  acc = fma(x[i][k], W(k, j), acc);  y[i][j] = acc
// with W(k, j) = W[k][j] (in_out) or W[j][k] (out_in), fma the IEEE one (x·w + acc rounded once: std::fma, but for
// Emscripten's, which rounds twice where the float is subnormal). So y[i][j] depends only on row i of x and
// column j of the map: not on N or n, on which rows or columns are computed together, on how threads
// split the work, or on whether the CPU has AVX-512, AVX2 + FMA, WebAssembly SIMD or none. A row recomputed alone
// equals, bit for bit, the same row inside the whole product.
//
// Register-blocked micro-kernels keep kGemmRows × kGemmPanel outputs in registers: 8 × 48 with AVX-512 (24 accumulators
// of its 32 registers), 4 × 24 with AVX2 + FMA (12 accumulators, three registers of W and one broadcast: all 16), 2 × 8
// with WebAssembly SIMD (no fma there: each float of a chain is carried as a double, see gemm.cpp), 4 × 8 in portable
// code (std::fma); a partial last panel takes only the registers its width needs. W is copied a K block
// (512 or 256 deep) at a time into contiguous panels kGemmPanel columns wide (gemm_out_in transposes while copying), a
// block of panels sized for L2; a K block's partial sums are kept in y and carried on exactly. A single row of x reads
// W in place: (in, out) weights whole rows at a time, (out, in) ones turned into columns 8 × 8 in registers.
#pragma once

#include <cstdint>

namespace attnlab {

#if defined(__AVX512F__)
inline constexpr int64_t kGemmPanel = 48;  // output columns per panel: three 16-float registers
inline constexpr int64_t kGemmRows = 8;    // rows of x per micro-kernel
#elif defined(__AVX2__) && defined(__FMA__)
inline constexpr int64_t kGemmPanel = 24;  // three 8-float registers
inline constexpr int64_t kGemmRows = 4;
#elif defined(__wasm_simd128__)
inline constexpr int64_t kGemmPanel = 8;  // two registers of four floats, each held as two of doubles
inline constexpr int64_t kGemmRows = 2;   // 8 accumulators of the 16 registers V8 has on x86-64
#else
inline constexpr int64_t kGemmPanel = 8;
inline constexpr int64_t kGemmRows = 4;
#endif

// What is done to each output once its chain is complete, before it leaves the registers (so a linear map's bias
// and its count of non-finite outputs cost no second pass over y).
struct GemmEpilogue {
    const float* bias = nullptr;    // (n,) or nullptr: y[i][j] = chain + bias[j], rounded once, as y += b after it
    int64_t* non_finite = nullptr;  // or nullptr: adds how many of the outputs written are NaN or ±∞ (bias included)
};

// y (N, n) = x (N, K) · W (K, n), then the epilogue. x row stride ldx ≥ K, W row stride ldw ≥ n, y row stride
// ldy ≥ n. Overwrites y[i][0 : n]; the rest of each y row is left alone.
void gemm_in_out(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n, float* y,
                 int64_t ldy, GemmEpilogue epilogue = {});

// gemm_in_out with each tile of kGemmRows rows of x (rows t·kGemmRows … of tile t) multiplying only k < tile_depth[t]
// (tile_depth: (⌈N / kGemmRows⌉,)): each output's fma chain stops there. It equals gemm_in_out's output bit for bit
// when every x[i][k] left out is 0 and W's rows k are finite (a chain from +0 never holds −0, so fma(0, w, acc) is acc).
void gemm_in_out_to_depth(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n,
                          float* y, int64_t ldy, const int64_t* tile_depth);

// y (N, n) = x (N, K) · Wᵀ, W (n, K) with row stride ldw ≥ K. Otherwise as gemm_in_out.
void gemm_out_in(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n, float* y,
                 int64_t ldy, GemmEpilogue epilogue = {});

// gemm_in_out and gemm_out_in with W stored as BF16 (bfloat16 bit patterns: the upper halves of floats, as a Hugging
// Face checkpoint ships them). Each W value is widened to its float, exactly, as W's panels are packed (or, for a
// single row of x, as a short stretch of W's rows is read), and the F32 micro-kernels multiply those: y equals, bit
// for bit, gemm_in_out / gemm_out_in on the widened W, under the contract above. That is Bf16Products::exact, the
// default; Bf16Products::dot_bf16 (gemm_bf16_products.h), asked for and on a CPU with AVX512_BF16, instead rounds x to
// BF16 and multiplies pairs of k by vdpbf16ps: y[i][j] = Σ_k bf16(x[i][k])·W(k, j) in F32, the exact products added in
// another order (still independent of N, n and the threads' split), then the epilogue.
void gemm_in_out_bf16(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                      float* y, int64_t ldy, GemmEpilogue epilogue = {});
void gemm_out_in_bf16(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                      float* y, int64_t ldy, GemmEpilogue epilogue = {});

// t (cols, rows) = mᵀ, m (rows, cols) with rows ldm apart, t's rows ldt apart: 16 × 16 (AVX-512) or 8 × 8 (AVX2)
// blocks turned in registers. For a product whose sum runs down the rows of both factors (a linear map's dW = dyᵀ·x).
void transpose(const float* m, int64_t rows, int64_t cols, int64_t ldm, float* t, int64_t ldt);

}  // namespace attnlab
