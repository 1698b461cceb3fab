// y = x·W and y = x·Wᵀ as one fma chain per output (see gemm.h): blocked over K and columns, W packed
// into panels, a register-blocked micro-kernel per (rows, panel) tile.
#include "ops/gemm.h"

#include "ops/gemm_bf16_dot.h"
#include "ops/gemm_bf16_products.h"
#include "ops/micro_kernel_table.h"
#include "ops/non_finite.h"

#include "bf16_buffer.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attnlab {

namespace {

constexpr float kFloatMax = std::numeric_limits<float>::max();

#if defined(__EMSCRIPTEN__)
// x·y + z rounded once to float, the IEEE fma. Emscripten's std::fma (musl's fmaf) adds in double and rounds that to
// float, which is two roundings where the float is subnormal. The product is exact in double, and its sum with z
// rounded to double rounds to the right float unless that double lies exactly halfway between two floats (its low
// 29 bits 0x10000000, or anywhere below 2^-126, where the floats are sparser): then the sum's error decides, and the
// double is moved to its neighbour with an odd last bit, toward the exact sum, before the one rounding to float.
float fma_once(float x, float y, float z) {
    const double product = double(x) * double(y);
    double sum = product + double(z);
    uint64_t bits;
    std::memcpy(&bits, &sum, sizeof bits);
    if (((bits & 0x1FFFFFFFu) != 0x10000000u && std::abs(sum) >= 0x1p-126) || !std::isfinite(sum))
        return static_cast<float>(sum);
    const double z_part = sum - product;  // the sum's error, exactly (Knuth's two-sum)
    const double error = (product - (sum - z_part)) + (double(z) - z_part);
    if (error != 0.0 && (bits & 1) == 0) {
        bits += (error > 0.0) == (sum > 0.0) ? 1 : -1;
        std::memcpy(&sum, &bits, sizeof sum);
    }
    return static_cast<float>(sum);
}
#else
float fma_once(float x, float y, float z) { return std::fma(x, y, z); }
#endif

// One register of floats and what the micro-kernel does with it.
#if defined(__AVX512F__)
struct Lanes {
    using V = __m512;
    static constexpr int64_t width = 16;
    static V zero() { return _mm512_setzero_ps(); }
    static V load(const float* p) { return _mm512_loadu_ps(p); }
    static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
    static V broadcast(float s) { return _mm512_set1_ps(s); }
    struct Watch {};  // what a chain of fmas must note to tell whether it rounded as fma_once does: nothing here
    static V fma(V a, V b, V c, Watch&) { return _mm512_fmadd_ps(a, b, c); }  // a·b + c, rounded once per lane
    static constexpr bool exact(const Watch&) { return true; }
    static V add(V a, V b) { return _mm512_add_ps(a, b); }
    // Lanes holding NaN or ±∞: those where |v| ≤ FLT_MAX is false.
    static int64_t non_finite(V v) {
        return _mm_popcnt_u32(_mm512_cmp_ps_mask(_mm512_abs_ps(v), _mm512_set1_ps(kFloatMax), _CMP_NLE_UQ));
    }
};
constexpr int64_t kDepth = 512;             // K block: a tile's rows of x (8 × 512 floats, 16 KB) stay in L1
constexpr int64_t kBlockBytes = 512 << 10;  // one K block of packed panels: half of a 1 MB L2
#elif defined(__AVX2__) && defined(__FMA__)
struct Lanes {
    using V = __m256;
    static constexpr int64_t width = 8;
    static V zero() { return _mm256_setzero_ps(); }
    static V load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
    static V broadcast(float s) { return _mm256_set1_ps(s); }
    struct Watch {};
    static V fma(V a, V b, V c, Watch&) { return _mm256_fmadd_ps(a, b, c); }
    static constexpr bool exact(const Watch&) { return true; }
    static V add(V a, V b) { return _mm256_add_ps(a, b); }
    static int64_t non_finite(V v) {
        const __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v);
        return _mm_popcnt_u32(static_cast<unsigned>(
            _mm256_movemask_ps(_mm256_cmp_ps(magnitude, _mm256_set1_ps(kFloatMax), _CMP_NLE_UQ))));
    }
};
constexpr int64_t kDepth = 256;             // K block: a tile's rows of x (4 × 256 floats, 4 KB) stay in L1
constexpr int64_t kBlockBytes = 256 << 10;  // fits a 256 KB - 1 MB L2
#elif defined(__wasm_simd128__)
// WebAssembly SIMD has no fused multiply-add, so four floats ride as two f64x2 holding their exact values. A product
// of two floats is exact in double; its sum with the chain's float is rounded to double, then to float. That is
// the fma's one rounding except (1) when the double lands exactly halfway between two floats (its low 29 bits
// 0x10000000) and is not the exact sum, or (2) when the float is subnormal, where halfway is coarser. Case 1 is
// watched for: every sum's 32-bit words, shifted left 3, go into a running minimum that is INT32_MIN only if some
// low word had that pattern (a high word can too, rarely: a needless redo), and a tile where it happened is done
// again one fma_once at a time. Case 2 needs a nonzero |x·w| < 2^-132, ruled out before the product starts
// (products_can_be_tiny). Six instructions for two floats where x86 has one fma for 8 or 16.
struct Lanes {
    struct V {
        v128_t lo, hi;  // floats 0-1 and 2-3, as doubles
    };
    static constexpr int64_t width = 4;
    // d rounded to float, as a double. The empty asm keeps LLVM 14 from folding the pair into a scalar conversion per
    // lane (2.5x slower).
    static v128_t to_float(v128_t d) {
        v128_t f = wasm_f32x4_demote_f64x2_zero(d);
        __asm__("" : "+r"(f));
        return wasm_f64x2_promote_low_f32x4(f);
    }
    static V zero() { return {wasm_f64x2_splat(0.0), wasm_f64x2_splat(0.0)}; }
    static V load(const float* p) {
        const v128_t f = wasm_v128_load(p);
        return {wasm_f64x2_promote_low_f32x4(f), wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(f, f, 2, 3, 2, 3))};
    }
    static void store(float* p, V v) {
        wasm_v128_store(p, wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(v.lo), wasm_f32x4_demote_f64x2_zero(v.hi),
                                              0, 1, 4, 5));
    }
    static V broadcast(float s) { return {wasm_f64x2_splat(s), wasm_f64x2_splat(s)}; }
    struct Watch {
        v128_t least = wasm_i32x4_splat(INT32_MAX);  // the minimum of every sum's words << 3
    };
    static v128_t fma_half(v128_t a, v128_t b, v128_t c, Watch& watch) {
        const v128_t sum = wasm_f64x2_add(wasm_f64x2_mul(a, b), c);
        watch.least = wasm_i32x4_min(watch.least, wasm_i32x4_shl(sum, 3));
        return to_float(sum);
    }
    static V fma(V a, V b, V c, Watch& watch) {
        return {fma_half(a.lo, b.lo, c.lo, watch), fma_half(a.hi, b.hi, c.hi, watch)};
    }
    static bool exact(const Watch& watch) {
        return !wasm_v128_any_true(wasm_i32x4_eq(watch.least, wasm_i32x4_splat(INT32_MIN)));
    }
    // The sum of two floats rounded to double, then to float, is their float sum (53 ≥ 2·24 + 2 bits).
    static V add(V a, V b) { return {to_float(wasm_f64x2_add(a.lo, b.lo)), to_float(wasm_f64x2_add(a.hi, b.hi))}; }
    static int64_t non_finite(V v) {
        const v128_t largest = wasm_f64x2_splat(kFloatMax);
        const int finite = __builtin_popcount(wasm_i64x2_bitmask(wasm_f64x2_le(wasm_f64x2_abs(v.lo), largest))) +
                           __builtin_popcount(wasm_i64x2_bitmask(wasm_f64x2_le(wasm_f64x2_abs(v.hi), largest)));
        return 4 - finite;
    }
};
constexpr int64_t kDepth = 256;
constexpr int64_t kBlockBytes = 256 << 10;
#else
struct Lanes {
    struct V {
        float f;
    };
    static constexpr int64_t width = 1;
    static V zero() { return {0.0f}; }
    static V load(const float* p) { return {*p}; }
    static void store(float* p, V v) { *p = v.f; }
    static V broadcast(float s) { return {s}; }
    struct Watch {};
    static V fma(V a, V b, V c, Watch&) { return {fma_once(a.f, b.f, c.f)}; }
    static constexpr bool exact(const Watch&) { return true; }
    static V add(V a, V b) { return {a.f + b.f}; }
    static int64_t non_finite(V v) { return non_finite_at(v.f); }
};
constexpr int64_t kDepth = 256;
constexpr int64_t kBlockBytes = 128 << 10;
#endif

constexpr int64_t kPanel = kGemmPanel;
constexpr int64_t kRows = kGemmRows;
constexpr int64_t kVecs = kPanel / Lanes::width;  // registers per row of a tile
static_assert(kVecs * Lanes::width == kPanel);
constexpr int64_t kBlockPanels = std::max<int64_t>(1, kBlockBytes / (kDepth * kPanel * int64_t(sizeof(float))));
constexpr int64_t kBlockColumns = kBlockPanels * kPanel;
// With this few rows a panel would be used once or twice after packing: (in, out) weights are then read in place.
constexpr int64_t kUnpackedRows = 2 * kRows;

// The chains of a micro-kernel's tile (R, V·w) again, one fma_once at a time, into acc: for a tile whose vector fmas
// may not have rounded once (Lanes::exact).
template <int R, int V>
void chains_one_fma_at_a_time(const float* x, int64_t ldx, const float* b, int64_t ldb, int64_t kc, const float* y,
                              int64_t ldy, bool accumulate, typename Lanes::V (&acc)[R][V]) {
    float chains[V * Lanes::width];
    for (int r = 0; r < R; ++r) {
        for (int64_t c = 0; c < V * Lanes::width; ++c) {
            float chain = accumulate ? y[r * ldy + c] : 0.0f;
            for (int64_t k = 0; k < kc; ++k) chain = fma_once(x[r * ldx + k], b[k * ldb + c], chain);
            chains[c] = chain;
        }
        for (int v = 0; v < V; ++v) acc[r][v] = Lanes::load(chains + v * Lanes::width);
    }
}

// y[0 : R, 0 : V·w] (row stride ldy) = (accumulate ? y : 0) + x[0 : R, 0 : kc] · b[0 : kc, 0 : V·w], w floats to a
// register (V = kVecs: a whole panel; fewer: the first registers of a partial one), x's rows ldx apart, b's ldb
// apart; then the epilogue (its bias (V·w,)) while the outputs are in registers. Each output adds its kc products
// in k order, one fma each, so a K block carried on from the y it left gives the bits of one unbroken chain.
template <int R, int V>
void micro_kernel(const float* x, int64_t ldx, const float* b, int64_t ldb, int64_t kc, float* y, int64_t ldy,
                  bool accumulate, GemmEpilogue epilogue) {
    typename Lanes::V acc[R][V];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v)
            acc[r][v] = accumulate ? Lanes::load(y + r * ldy + v * Lanes::width) : Lanes::zero();
    typename Lanes::Watch watch;
    const float* b_rows = b;
    for (int64_t k = 0; k < kc; ++k, b += ldb) {
        typename Lanes::V w[V];
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v) w[v] = Lanes::load(b + v * Lanes::width);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const typename Lanes::V xr = Lanes::broadcast(x[r * ldx + k]);
#pragma GCC unroll 8
            for (int v = 0; v < V; ++v) acc[r][v] = Lanes::fma(xr, w[v], acc[r][v], watch);
        }
    }
    if (!Lanes::exact(watch)) chains_one_fma_at_a_time<R, V>(x, ldx, b_rows, ldb, kc, y, ldy, accumulate, acc);
    if (epilogue.bias) {
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v) {
            const typename Lanes::V bias = Lanes::load(epilogue.bias + v * Lanes::width);
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) acc[r][v] = Lanes::add(acc[r][v], bias);
        }
    }
    if (epilogue.non_finite) {
        int64_t count = 0;
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
            for (int v = 0; v < V; ++v) count += Lanes::non_finite(acc[r][v]);
        *epilogue.non_finite += count;
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v) Lanes::store(y + r * ldy + v * Lanes::width, acc[r][v]);
}

using MicroKernel = void (*)(const float*, int64_t, const float*, int64_t, int64_t, float*, int64_t, bool,
                             GemmEpilogue);

// The epilogue on outputs already stored, y (rows, cols) with rows ldy apart; its bias is (cols,).
void finish_block(float* y, int64_t rows, int64_t cols, int64_t ldy, GemmEpilogue epilogue) {
    int64_t count = 0;
    for (int64_t r = 0; r < rows; ++r) {
        float* row = y + r * ldy;
        if (epilogue.bias)
            for (int64_t c = 0; c < cols; ++c) row[c] += epilogue.bias[c];
        if (epilogue.non_finite)
            for (int64_t c = 0; c < cols; ++c) count += non_finite_at(row[c]);
    }
    if (epilogue.non_finite) *epilogue.non_finite += count;
}

struct Kernels {
    template <int R, int V>
    static constexpr MicroKernel of() { return micro_kernel<R, V>; }
};
// Weights·V's second panel at D = 64 is 16 of 48 columns: one register wide.
constexpr auto kMicroKernels = micro_kernel_table<MicroKernel, kVecs, kRows, Kernels>();

// Copies shorter than a panel, of a length known only at run time, as element-wise loops that compile to (masked)
// vector moves: memcpy and std::fill of such lengths were inlined as `rep movs` and `rep stos`, whose start-up cost
// more than the copy (packing a 16-column partial panel took longer than multiplying it).
// dst[0 : kPanel] = src[0 : n], then zeros (n ≤ kPanel).
void copy_padded(const float* src, int64_t n, float* dst) {
    for (int64_t c = 0; c < kPanel; ++c) dst[c] = c < n ? src[c] : 0.0f;
}
// dst[0 : n] = src[0 : n] (n ≤ kPanel); the rest of dst is left alone.
void copy_short(const float* src, int64_t n, float* dst) {
    for (int64_t c = 0; c < kPanel; ++c)
        if (c < n) dst[c] = src[c];
}

// Which k a tile of rows multiplies: all of them, or those below its own depth (gemm_in_out_to_depth).
struct TileDepths {
    const int64_t* depth = nullptr;  // (tiles,) or nullptr: every k
    int64_t k0 = 0;                  // the K block's first k
    // k of the block [k0, k0 + kc) that tile t multiplies: [k0, k0 + result)
    int64_t of(int64_t t, int64_t kc) const { return depth ? std::clamp<int64_t>(depth[t] - k0, 0, kc) : kc; }
};

// y[0 : N, 0 : nc] (+)= x[0 : N, 0 : kc] · B for one K block, B in panels kPanel wide: panel p at b + p·panel_stride,
// its rows ldb apart. A partial last panel is read as far as the registers its width needs (the caller zero-pads it)
// and written only where it lies.
// Row tile t multiplies only the block's first depths.of(t, kc) rows of B. `last`: the epilogue of the columns'
// last K block (its bias (nc,)), or none.
void multiply_panels(const float* x, int64_t N, int64_t ldx, const float* b, int64_t ldb, int64_t panel_stride,
                     int64_t kc, int64_t nc, float* y, int64_t ldy, bool accumulate, GemmEpilogue last,
                     TileDepths depths = {}) {
    for (int64_t i = 0; i < N; i += kRows) {
        const int64_t rows = std::min(kRows, N - i);
        const float* xi = x + i * ldx;
        const int64_t depth = depths.of(i / kRows, kc);
        if (depth == 0 && accumulate) continue;  // nothing to add to what y holds
        for (int64_t j = 0, p = 0; j < nc; j += kPanel, ++p) {
            float* yij = y + i * ldy + j;
            const int64_t width = std::min(kPanel, nc - j);
            const float* bias = last.bias ? last.bias + j : nullptr;
            const int64_t vecs = (width + Lanes::width - 1) / Lanes::width;  // the registers its width needs
            const MicroKernel kernel = kMicroKernels[static_cast<size_t>(vecs - 1)][static_cast<size_t>(rows - 1)];
            if (width == vecs * Lanes::width) {  // whole registers: the kernel reads and writes only the panel's own
                kernel(xi, ldx, b + p * panel_stride, ldb, depth, yij, ldy, accumulate, {bias, last.non_finite});
                continue;
            }
            float tile[kRows * kPanel];  // (rows, kPanel): the partial panel's outputs
            if (accumulate)
                for (int64_t r = 0; r < rows; ++r) copy_padded(yij + r * ldy, width, tile + r * kPanel);
            kernel(xi, ldx, b + p * panel_stride, ldb, depth, tile, kPanel, accumulate, {});
            for (int64_t r = 0; r < rows; ++r) copy_short(tile + r * kPanel, width, yij + r * ldy);
            finish_block(yij, rows, width, ldy, {bias, last.non_finite});  // not the padding's 0 · ∞
        }
    }
}

// One row of x against W (K, n) in place, rows ldw apart: y[0 : n] = x[0 : K] · W, W's rows read front to
// back eight at a time, each output carried through four fmas in a register between loads and stores of y. (A walk
// down one panel at a time, rows 3-12 KB apart, halves the rate at which a single token reads W.)
// y[0 : n] += x[0 : steps] · W[0 : steps, 0 : n] (steps ≤ 8), W's rows ldw apart: one step of multiply_row.
void multiply_row_step(const float* x, const float* w, int64_t ldw, int64_t steps, int64_t n, float* y) {
    constexpr int64_t kStep = 8;
    typename Lanes::V xs[kStep];
    for (int64_t s = 0; s < steps; ++s) xs[s] = Lanes::broadcast(x[s]);
    int64_t j = 0;
    if (steps == kStep) {
        for (; j + Lanes::width <= n; j += Lanes::width) {
            typename Lanes::V acc = Lanes::load(y + j);
            typename Lanes::Watch watch;
#pragma GCC unroll 8
            for (int64_t s = 0; s < kStep; ++s) acc = Lanes::fma(xs[s], Lanes::load(w + s * ldw + j), acc, watch);
            if (Lanes::exact(watch)) {
                Lanes::store(y + j, acc);
                continue;
            }
            for (int64_t c = j; c < j + Lanes::width; ++c)  // again, one fma_once at a time
                for (int64_t s = 0; s < kStep; ++s) y[c] = fma_once(x[s], w[s * ldw + c], y[c]);
        }
    }
    for (; j < n; ++j)
        for (int64_t s = 0; s < steps; ++s) y[j] = fma_once(x[s], w[s * ldw + j], y[j]);
}

// One row of x against W (K, n) in place, rows ldw apart: y[0 : n] = x[0 : K] · W, W's rows read front to
// back eight at a time, each output carried through four fmas in a register between loads and stores of y. (A walk
// down one panel at a time, rows 3-12 KB apart, halves the rate at which a single token reads W.)
void multiply_row(const float* x, const float* W, int64_t ldw, int64_t K, int64_t n, float* y) {
    constexpr int64_t kStep = 8;
    std::fill(y, y + n, 0.0f);
    for (int64_t k = 0; k < K; k += kStep) multiply_row_step(x + k, W + k * ldw, ldw, std::min(kStep, K - k), n, y);
}

// Panels of W (kc, nc) row-major, rows ldw apart, to `out`: panel p (kc, kPanel) at out + p·kc·kPanel, zero-padded.
void pack_in_out(const float* W, int64_t ldw, int64_t kc, int64_t nc, float* out) {
    for (int64_t k = 0; k < kc; ++k) {  // row k's stretch of every panel, read front to back
        const float* row = W + k * ldw;
        for (int64_t j = 0, p = 0; j < nc; j += kPanel, ++p) {
            float* dst = out + (p * kc + k) * kPanel;
            const int64_t width = std::min(kPanel, nc - j);
            if (width == kPanel) {
                std::memcpy(dst, row + j, kPanel * sizeof(float));  // a constant size: inlined
                continue;
            }
            copy_padded(row + j, width, dst);
        }
    }
}

#if defined(__AVX2__)
// The columns of an 8 × 8 block, rows lds apart: col[t] = (src[0][t], src[1][t], …, src[7][t]).
inline void columns_8x8(const float* src, int64_t lds, __m256 col[8]) {
    __m256 r[8], t[8];
    for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * lds);
    for (int i = 0; i < 8; i += 2) {  // (a0 b0 a1 b1 | a4 b4 a5 b5), (a2 b2 a3 b3 | a6 b6 a7 b7)
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {  // (a0 b0 c0 d0 | a4 b4 c4 d4), … (a3 b3 c3 d3 | a7 b7 c7 d7)
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; ++i) {  // column i from rows a-d and e-h, then column i + 4
        col[i] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x20);
        col[i + 4] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x31);
    }
}

// dst[c][r] = src[r][c] for an 8 × 8 block: rows lds apart in src, ldd apart in dst.
void transpose_8x8(const float* src, int64_t lds, float* dst, int64_t ldd) {
    __m256 col[8];
    columns_8x8(src, lds, col);
    for (int i = 0; i < 8; ++i) _mm256_storeu_ps(dst + i * ldd, col[i]);
}

// One row of x against W (n, K) in place, rows ldw apart: y[0 : n] = x[0 : K] · Wᵀ, eight outputs to a register,
// each 8 × 8 block of W turned into columns in registers and used at once (packing a single row's panels first
// wrote and re-read every float of W). Two registers of outputs at a time: two fma chains, 16 of W's rows read
// side by side (one chain waits on the fma's latency; 24 or 32 rows were slower at K = 3072 and on the logits).
void multiply_row_transposed(const float* x, const float* W, int64_t ldw, int64_t K, int64_t n, float* y) {
    constexpr int64_t kGroups = 2;
    int64_t j = 0;
    for (; j + 8 * kGroups <= n; j += 8 * kGroups) {
        __m256 acc[kGroups];
        for (int64_t g = 0; g < kGroups; ++g) acc[g] = _mm256_setzero_ps();
        int64_t k = 0;
        for (; k + 8 <= K; k += 8) {
#pragma GCC unroll 4
            for (int64_t g = 0; g < kGroups; ++g) {
                __m256 col[8];
                columns_8x8(W + (j + 8 * g) * ldw + k, ldw, col);
#pragma GCC unroll 8
                for (int t = 0; t < 8; ++t) acc[g] = _mm256_fmadd_ps(_mm256_broadcast_ss(x + k + t), col[t], acc[g]);
            }
        }
        for (int64_t g = 0; g < kGroups; ++g) _mm256_storeu_ps(y + j + 8 * g, acc[g]);
        for (int64_t c = 0; c < 8 * kGroups && k < K; ++c)  // the last K mod 8 steps of each chain
            for (int64_t kk = k; kk < K; ++kk) y[j + c] = fma_once(x[kk], W[(j + c) * ldw + kk], y[j + c]);
    }
    for (; j < n; ++j) {  // outputs past the last whole group
        float acc = 0.0f;
        for (int64_t k = 0; k < K; ++k) acc = fma_once(x[k], W[j * ldw + k], acc);
        y[j] = acc;
    }
}
#endif

#if defined(__AVX512F__)
// dst[c][r] = src[r][c] for a 16 × 16 block: rows lds apart in src, ldd apart in dst. A float takes two thirds of
// the shuffles it takes in 8 × 8 blocks, and each row is read a whole 64-byte line at a time.
void transpose_16x16(const float* src, int64_t lds, float* dst, int64_t ldd) {
    __m512 r[16], t[16];
    for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(src + i * lds);
    for (int i = 0; i < 16; i += 2) {  // within each 128-bit lane, as columns_8x8 does
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {  // r[i + m], lane L: column 4L + m of rows i … i + 3
        r[i] = _mm512_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int m = 0; m < 4; ++m) {  // lanes (0, 2 | 0, 2) and (1, 3 | 1, 3) of row groups 0 and 1, then 2 and 3
        t[m] = _mm512_shuffle_f32x4(r[m], r[m + 4], _MM_SHUFFLE(2, 0, 2, 0));
        t[m + 4] = _mm512_shuffle_f32x4(r[m], r[m + 4], _MM_SHUFFLE(3, 1, 3, 1));
        t[m + 8] = _mm512_shuffle_f32x4(r[m + 8], r[m + 12], _MM_SHUFFLE(2, 0, 2, 0));
        t[m + 12] = _mm512_shuffle_f32x4(r[m + 8], r[m + 12], _MM_SHUFFLE(3, 1, 3, 1));
    }
    for (int m = 0; m < 4; ++m) {  // columns m, m + 4, m + 8, m + 12: all 16 rows each
        _mm512_storeu_ps(dst + m * ldd, _mm512_shuffle_f32x4(t[m], t[m + 8], _MM_SHUFFLE(2, 0, 2, 0)));
        _mm512_storeu_ps(dst + (m + 8) * ldd, _mm512_shuffle_f32x4(t[m], t[m + 8], _MM_SHUFFLE(3, 1, 3, 1)));
        _mm512_storeu_ps(dst + (m + 4) * ldd, _mm512_shuffle_f32x4(t[m + 4], t[m + 12], _MM_SHUFFLE(2, 0, 2, 0)));
        _mm512_storeu_ps(dst + (m + 12) * ldd, _mm512_shuffle_f32x4(t[m + 4], t[m + 12], _MM_SHUFFLE(3, 1, 3, 1)));
    }
}
#endif

}  // namespace

void transpose(const float* m, int64_t rows, int64_t cols, int64_t ldm, float* t, int64_t ldt) {
    // Each strip of B rows: B × B blocks by `block`, then its last cols mod B columns one float at a time.
    const auto strips = [&](int64_t& r, int64_t B, auto block) {
        for (; r + B <= rows; r += B) {
            int64_t c = 0;
            for (; c + B <= cols; c += B) block(m + r * ldm + c, ldm, t + c * ldt + r, ldt);
            for (; c < cols; ++c)
                for (int64_t i = r; i < r + B; ++i) t[c * ldt + i] = m[i * ldm + c];
        }
    };
    int64_t r = 0;
#if defined(__AVX512F__)
    strips(r, 16, transpose_16x16);
#endif
#if defined(__AVX2__)
    strips(r, 8, transpose_8x8);
#endif
    for (; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) t[c * ldt + r] = m[r * ldm + c];
}

namespace {

// B of W's rows (src, ldw apart) into B columns of a panel (rows kPanel apart): B × B blocks turned by `transpose`,
// the last kc mod B entries of each row one by one.
template <int B, class Transpose>
void pack_transposed_rows(const float* src, int64_t ldw, int64_t kc, float* columns, Transpose transpose) {
    int64_t k = 0;
    for (; k + B <= kc; k += B) transpose(src + k, ldw, columns + k * kPanel, kPanel);
    for (; k < kc; ++k)
        for (int64_t i = 0; i < B; ++i) columns[k * kPanel + i] = src[i * ldw + k];
}

// The same panels of Wᵀ, W (nc, kc) row-major with rows ldw apart: panel p's row k is W[p·kPanel + 0 .. kPanel][k].
void pack_out_in(const float* W, int64_t ldw, int64_t kc, int64_t nc, float* out) {
    for (int64_t j = 0, p = 0; j < nc; j += kPanel, ++p) {
        float* panel = out + p * kc * kPanel;
        const int64_t width = std::min(kPanel, nc - j);
        if (width < kPanel) std::fill(panel, panel + kc * kPanel, 0.0f);  // the padding columns, in one long fill
        int64_t c = 0;  // W's rows j + c … become the panel's columns c …
#if defined(__AVX512F__)
        for (; c + 16 <= width; c += 16)  // 16 × 16 blocks where they fit
            pack_transposed_rows<16>(W + (j + c) * ldw, ldw, kc, panel + c, transpose_16x16);
#endif
#if defined(__AVX2__)
        for (; c + 8 <= width; c += 8)  // then 8 × 8 blocks
            pack_transposed_rows<8>(W + (j + c) * ldw, ldw, kc, panel + c, transpose_8x8);
#endif
        for (; c < width; ++c) {
            const float* src = W + (j + c) * ldw;
            for (int64_t k = 0; k < kc; ++k) panel[k * kPanel + c] = src[k];
        }
    }
}

enum class Stored { in_out, out_in };  // W (K, n) or W (n, K)

#if defined(__wasm_simd128__)
// The smallest |v| ≠ 0 of v (rows, cols), rows ld apart; +∞ if there is none. On the bits: |v|'s bits − 1, unsigned,
// order the magnitudes with 0 last (a NaN only after +∞), four at a time.
float smallest_nonzero_magnitude(const float* v, int64_t rows, int64_t cols, int64_t ld) {
    constexpr uint32_t kMagnitude = 0x7FFFFFFFu;
    v128_t least4 = wasm_u32x4_splat(0xFFFFFFFFu);
    uint32_t least = 0xFFFFFFFFu;
    for (int64_t r = 0; r < rows; ++r) {
        const float* row = v + r * ld;
        int64_t c = 0;
        for (; c + 4 <= cols; c += 4) {
            const v128_t magnitude = wasm_v128_and(wasm_v128_load(row + c), wasm_u32x4_splat(kMagnitude));
            least4 = wasm_u32x4_min(least4, wasm_i32x4_sub(magnitude, wasm_u32x4_splat(1)));
        }
        for (; c < cols; ++c) {
            uint32_t bits;
            std::memcpy(&bits, row + c, sizeof bits);
            least = std::min(least, (bits & kMagnitude) - 1u);
        }
    }
    least = std::min({least, wasm_u32x4_extract_lane(least4, 0), wasm_u32x4_extract_lane(least4, 1),
                      wasm_u32x4_extract_lane(least4, 2), wasm_u32x4_extract_lane(least4, 3)});
    if (least == 0xFFFFFFFFu) return std::numeric_limits<float>::infinity();
    const uint32_t bits = least + 1u;
    float smallest;
    std::memcpy(&smallest, &bits, sizeof smallest);
    return smallest;
}

// Whether some x[i][k]·W(k, j) could be nonzero and below 2^-132 in magnitude: only then can a chain's float be
// subnormal while its double sum was inexact (the sum's bits span less than 53 otherwise), where Lanes' rounding
// through double could differ from the fma's.
bool products_can_be_tiny(Stored layout, const float* x, int64_t N, int64_t K, int64_t ldx, const float* W,
                          int64_t ldw, int64_t n) {
    const double x_floor = smallest_nonzero_magnitude(x, N, K, ldx);
    const double w_floor = layout == Stored::in_out ? smallest_nonzero_magnitude(W, K, n, ldw)
                                                    : smallest_nonzero_magnitude(W, n, K, ldw);
    return x_floor * w_floor < 0x1p-132;
}

// The contract's own loop, one fma_once at a time, then the epilogue (a tile_depth is left out: the chains past
// it add only 0·w).
void gemm_one_fma_at_a_time(Stored layout, const float* x, int64_t N, int64_t K, int64_t ldx, const float* W,
                            int64_t ldw, int64_t n, float* y, int64_t ldy, GemmEpilogue epilogue) {
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < n; ++j) {
            float chain = 0.0f;
            for (int64_t k = 0; k < K; ++k)
                chain = fma_once(x[i * ldx + k], layout == Stored::in_out ? W[k * ldw + j] : W[j * ldw + k], chain);
            y[i * ldy + j] = chain;
        }
    finish_block(y, N, n, ldy, epilogue);
}
#endif

void gemm(Stored layout, const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n,
          float* y, int64_t ldy, GemmEpilogue epilogue, const int64_t* tile_depth = nullptr) {
    assert(N >= 0 && K >= 0 && n >= 0 && ldx >= K && ldy >= n && ldw >= (layout == Stored::in_out ? n : K));
    assert(!tile_depth || (!epilogue.bias && !epilogue.non_finite));  // a skipped tile would miss its epilogue
    if (N == 0 || n == 0) return;
    if (K == 0) {
        for (int64_t i = 0; i < N; ++i) std::fill(y + i * ldy, y + i * ldy + n, 0.0f);
        finish_block(y, N, n, ldy, epilogue);
        return;
    }
#if defined(__wasm_simd128__)
    if (products_can_be_tiny(layout, x, N, K, ldx, W, ldw, n)) {
        gemm_one_fma_at_a_time(layout, x, N, K, ldx, W, ldw, n, y, ldy, epilogue);
        return;
    }
#endif
    if (layout == Stored::in_out && N == 1) {  // W's whole rows, front to back
        multiply_row(x, W, ldw, tile_depth ? std::clamp<int64_t>(tile_depth[0], 0, K) : K, n, y);
        finish_block(y, 1, n, ldy, epilogue);
        return;
    }
#if defined(__AVX2__)
    if (layout == Stored::out_in && N == 1) {
        multiply_row_transposed(x, W, ldw, K, n, y);
        finish_block(y, 1, n, ldy, epilogue);
        return;
    }
#endif
    const bool unpacked = layout == Stored::in_out && N <= kUnpackedRows;
    const int64_t padded = (std::min(kBlockColumns, n) + kPanel - 1) / kPanel * kPanel;
    // (panels, kc, kPanel) for one K block, 64-byte aligned; every float the kernels read is written first.
    // new float[n] leaves the floats unset, as make_unique_for_overwrite would (libc++ 14 lacks it).
    const std::unique_ptr<float[]> storage(new float[static_cast<size_t>(std::min(kDepth, K) * padded + 16)]);
    float* packed = storage.get() + (16 - reinterpret_cast<uintptr_t>(storage.get()) / sizeof(float) % 16) % 16;
    for (int64_t j0 = 0; j0 < n; j0 += kBlockColumns) {
        const int64_t nc = std::min(kBlockColumns, n - j0);
        for (int64_t k0 = 0; k0 < K; k0 += kDepth) {
            const int64_t kc = std::min(kDepth, K - k0);
            const bool accumulate = k0 > 0;
            const TileDepths depths{tile_depth, k0};
            GemmEpilogue last;  // of columns j0 …, in their last K block
            if (k0 + kc == K) last = {epilogue.bias ? epilogue.bias + j0 : nullptr, epilogue.non_finite};
            if (unpacked) {  // whole panels straight from W's rows, a partial last one through `packed`
                const int64_t whole = nc / kPanel * kPanel;
                const float* w = W + k0 * ldw + j0;
                multiply_panels(x + k0, N, ldx, w, ldw, kPanel, kc, whole, y + j0, ldy, accumulate, last, depths);
                if (whole == nc) continue;
                pack_in_out(w + whole, ldw, kc, nc - whole, packed);
                if (last.bias) last.bias += whole;
                multiply_panels(x + k0, N, ldx, packed, kPanel, kc * kPanel, kc, nc - whole, y + j0 + whole, ldy,
                                accumulate, last, depths);
                continue;
            }
            if (layout == Stored::in_out)
                pack_in_out(W + k0 * ldw + j0, ldw, kc, nc, packed);
            else
                pack_out_in(W + j0 * ldw + k0, ldw, kc, nc, packed);
            multiply_panels(x + k0, N, ldx, packed, kPanel, kc * kPanel, kc, nc, y + j0, ldy, accumulate, last, depths);
        }
    }
}

// BF16 weights: W's values widened to floats (exact) as they are packed or read, into F32 panels or a short stretch
// of F32 rows that the F32 code above then multiplies, so that every output is the F32 gemm's on the widened W.

// dst (rows, cols), rows ldd apart = the BF16 src (rows, cols), rows lds apart, widened.
void widen_block(const uint16_t* src, int64_t lds, int64_t rows, int64_t cols, float* dst, int64_t ldd) {
    for (int64_t r = 0; r < rows; ++r) {
        const uint16_t* s = src + r * lds;
        float* d = dst + r * ldd;
        for (int64_t c = 0; c < cols; ++c) d[c] = bf16_to_float(s[c]);
    }
}

#if defined(__wasm_simd128__)
// smallest_nonzero_magnitude of a BF16 W (rows, cols), rows ld apart, as a double.
double smallest_nonzero_bf16(const uint16_t* v, int64_t rows, int64_t cols, int64_t ld) {
    uint16_t least = 0xFFFFu;  // |v|'s bits − 1, so that 0 comes last
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) least = std::min(least, static_cast<uint16_t>((v[r * ld + c] & 0x7FFFu) - 1u));
    return least == 0xFFFFu ? std::numeric_limits<double>::infinity() : bf16_to_float(static_cast<uint16_t>(least + 1u));
}
#endif

// An aligned scratch array of n floats, each written before it is read.
struct Scratch {
    explicit Scratch(int64_t n) : storage(new float[static_cast<size_t>(n + 16)]) {
        data = storage.get() + (16 - reinterpret_cast<uintptr_t>(storage.get()) / sizeof(float) % 16) % 16;
    }
    std::unique_ptr<float[]> storage;
    float* data;
};

// Columns per stretch of a single row's in-place read: kRowStep rows of that many floats stay in L1.
constexpr int64_t kRowColumns = 1024;
constexpr int64_t kRowStep = 8;  // multiply_row's rows per step

void gemm_bf16(Stored layout, const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw,
               int64_t n, float* y, int64_t ldy, GemmEpilogue epilogue) {
    assert(N >= 0 && K >= 0 && n >= 0 && ldx >= K && ldy >= n && ldw >= (layout == Stored::in_out ? n : K));
    if (N == 0 || n == 0) return;
    if (K == 0) {
        for (int64_t i = 0; i < N; ++i) std::fill(y + i * ldy, y + i * ldy + n, 0.0f);
        finish_block(y, N, n, ldy, epilogue);
        return;
    }
#if ATTNLAB_BF16_DOT
    if (bf16_products() == Bf16Products::dot_bf16) {  // asked for, and this CPU has it (gemm_bf16_products.h)
        (layout == Stored::in_out ? gemm_in_out_bf16_dot : gemm_out_in_bf16_dot)(x, N, K, ldx, W, ldw, n, y, ldy);
        finish_block(y, N, n, ldy, epilogue);  // a second pass over y: 1/K of the products' work
        return;
    }
#endif
#if defined(__wasm_simd128__)
    const int64_t w_rows = layout == Stored::in_out ? K : n, w_cols = layout == Stored::in_out ? n : K;
    if (double(smallest_nonzero_magnitude(x, N, K, ldx)) * smallest_nonzero_bf16(W, w_rows, w_cols, ldw) < 0x1p-132) {
        Scratch wide(w_rows * w_cols);  // the rare case of products_can_be_tiny: the contract's loop on W widened
        widen_block(W, ldw, w_rows, w_cols, wide.data, w_cols);
        gemm_one_fma_at_a_time(layout, x, N, K, ldx, wide.data, w_cols, n, y, ldy, epilogue);
        return;
    }
#endif
    if (layout == Stored::in_out && N == 1) {  // multiply_row, kRowStep rows × kRowColumns columns widened at a time
        Scratch rows(kRowStep * kRowColumns);
        for (int64_t j = 0; j < n; j += kRowColumns) {
            const int64_t nc = std::min(kRowColumns, n - j);
            float* yj = y + j;
            std::fill(yj, yj + nc, 0.0f);
            for (int64_t k = 0; k < K; k += kRowStep) {
                const int64_t steps = std::min(kRowStep, K - k);
                widen_block(W + k * ldw + j, ldw, steps, nc, rows.data, nc);
                multiply_row_step(x + k, rows.data, nc, steps, nc, yj);
            }
        }
        finish_block(y, 1, n, ldy, epilogue);
        return;
    }
#if defined(__AVX2__)
    if (layout == Stored::out_in && N == 1) {  // multiply_row_transposed on 16 of W's rows at a time, widened
        constexpr int64_t kGroup = 16;         // its two groups of 8 outputs: every output's chain is unchanged
        Scratch rows(kGroup * K);
        for (int64_t j = 0; j < n; j += kGroup) {
            const int64_t nc = std::min(kGroup, n - j);
            widen_block(W + j * ldw, ldw, nc, K, rows.data, K);
            multiply_row_transposed(x, rows.data, K, K, nc, y + j);
        }
        finish_block(y, 1, n, ldy, epilogue);
        return;
    }
#endif
    const int64_t padded = (std::min(kBlockColumns, n) + kPanel - 1) / kPanel * kPanel;
    Scratch packed(std::min(kDepth, K) * padded);
    // out_in: each panel's W rows (kPanel, kc) widened here first, then turned by pack_out_in's transposes.
    Scratch rows(layout == Stored::out_in ? kPanel * std::min(kDepth, K) : 0);
    for (int64_t j0 = 0; j0 < n; j0 += kBlockColumns) {
        const int64_t nc = std::min(kBlockColumns, n - j0);
        for (int64_t k0 = 0; k0 < K; k0 += kDepth) {
            const int64_t kc = std::min(kDepth, K - k0);
            GemmEpilogue last;
            if (k0 + kc == K) last = {epilogue.bias ? epilogue.bias + j0 : nullptr, epilogue.non_finite};
            for (int64_t j = 0, p = 0; j < nc; j += kPanel, ++p) {
                const int64_t width = std::min(kPanel, nc - j);
                float* panel = packed.data + p * kc * kPanel;
                if (layout == Stored::in_out) {
                    for (int64_t k = 0; k < kc; ++k) {
                        const uint16_t* src = W + (k0 + k) * ldw + j0 + j;
                        float* dst = panel + k * kPanel;
                        for (int64_t c = 0; c < kPanel; ++c) dst[c] = c < width ? bf16_to_float(src[c]) : 0.0f;
                    }
                } else {
                    widen_block(W + (j0 + j) * ldw + k0, ldw, width, kc, rows.data, kc);
                    pack_out_in(rows.data, kc, kc, width, panel);
                }
            }
            multiply_panels(x + k0, N, ldx, packed.data, kPanel, kc * kPanel, kc, nc, y + j0, ldy, k0 > 0, last);
        }
    }
}

}  // namespace

void gemm_in_out_bf16(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                      float* y, int64_t ldy, GemmEpilogue epilogue) {
    gemm_bf16(Stored::in_out, x, N, K, ldx, W, ldw, n, y, ldy, epilogue);
}

void gemm_out_in_bf16(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                      float* y, int64_t ldy, GemmEpilogue epilogue) {
    gemm_bf16(Stored::out_in, x, N, K, ldx, W, ldw, n, y, ldy, epilogue);
}

void gemm_in_out(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n, float* y,
                 int64_t ldy, GemmEpilogue epilogue) {
    gemm(Stored::in_out, x, N, K, ldx, W, ldw, n, y, ldy, epilogue);
}

void gemm_out_in(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n, float* y,
                 int64_t ldy, GemmEpilogue epilogue) {
    gemm(Stored::out_in, x, N, K, ldx, W, ldw, n, y, ldy, epilogue);
}

void gemm_in_out_to_depth(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n,
                          float* y, int64_t ldy, const int64_t* tile_depth) {
    assert(tile_depth);
    gemm(Stored::in_out, x, N, K, ldx, W, ldw, n, y, ldy, {}, tile_depth);
}

}  // namespace attnlab
