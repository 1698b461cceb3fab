// y = x·W and y = x·Wᵀ as one fma chain per output (see gemm.h): blocked over K and columns, W packed
// into panels, a register-blocked micro-kernel per (rows, panel) tile.
#include "ops/gemm.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#include <immintrin.h>
#endif

namespace attnlab {

namespace {

// One register of floats and the four things the micro-kernel does with it.
#if defined(__AVX512F__)
struct Lanes {
    using V = __m512;
    static constexpr int64_t width = 16;
    static V zero() { return _mm512_setzero_ps(); }
    static V load(const float* p) { return _mm512_loadu_ps(p); }
    static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
    static V broadcast(float s) { return _mm512_set1_ps(s); }
    static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }  // a·b + c, rounded once per lane
};
constexpr int64_t kBlockBytes = 512 << 10;  // one K block of packed panels: half of a 1 MB L2
#elif defined(__AVX2__) && defined(__FMA__)
struct Lanes {
    using V = __m256;
    static constexpr int64_t width = 8;
    static V zero() { return _mm256_setzero_ps(); }
    static V load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
    static V broadcast(float s) { return _mm256_set1_ps(s); }
    static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
};
constexpr int64_t kBlockBytes = 256 << 10;  // fits a 256 KB - 1 MB L2
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
    static V fma(V a, V b, V c) { return {std::fma(a.f, b.f, c.f)}; }
};
constexpr int64_t kBlockBytes = 128 << 10;
#endif

constexpr int64_t kPanel = kGemmPanel;
constexpr int64_t kRows = kGemmRows;
constexpr int64_t kVecs = kPanel / Lanes::width;  // registers per row of a tile
static_assert(kVecs * Lanes::width == kPanel);
constexpr int64_t kDepth = 256;  // K block: a tile's rows of x (kRows × 256 floats, ≤ 8 KB) stay in L1
constexpr int64_t kBlockPanels = std::max<int64_t>(1, kBlockBytes / (kDepth * kPanel * int64_t(sizeof(float))));
constexpr int64_t kBlockColumns = kBlockPanels * kPanel;
// With this few rows a panel would be used once or twice after packing: (in, out) weights are then read in place.
constexpr int64_t kUnpackedRows = 2 * kRows;

// y[0 : R, 0 : kPanel] (row stride ldy) = (accumulate ? y : 0) + x[0 : R, 0 : kc] · b[0 : kc, 0 : kPanel], x's rows
// ldx apart, b's ldb apart. Each output adds its kc products in k order, one fma each, so a K block carried on
// from the y it left gives the bits of one unbroken chain.
template <int R>
void micro_kernel(const float* x, int64_t ldx, const float* b, int64_t ldb, int64_t kc, float* y, int64_t ldy,
                  bool accumulate) {
    typename Lanes::V acc[R][kVecs];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int v = 0; v < kVecs; ++v)
            acc[r][v] = accumulate ? Lanes::load(y + r * ldy + v * Lanes::width) : Lanes::zero();
    for (int64_t k = 0; k < kc; ++k, b += ldb) {
        typename Lanes::V w[kVecs];
#pragma GCC unroll 8
        for (int v = 0; v < kVecs; ++v) w[v] = Lanes::load(b + v * Lanes::width);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const typename Lanes::V xr = Lanes::broadcast(x[r * ldx + k]);
#pragma GCC unroll 8
            for (int v = 0; v < kVecs; ++v) acc[r][v] = Lanes::fma(xr, w[v], acc[r][v]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int v = 0; v < kVecs; ++v) Lanes::store(y + r * ldy + v * Lanes::width, acc[r][v]);
}

using MicroKernel = void (*)(const float*, int64_t, const float*, int64_t, int64_t, float*, int64_t, bool);

template <size_t... R>
constexpr auto micro_kernels(std::index_sequence<R...>) {
    return std::array<MicroKernel, sizeof...(R)>{micro_kernel<static_cast<int>(R) + 1>...};
}
constexpr auto kMicroKernels = micro_kernels(std::make_index_sequence<kRows>());  // [r - 1]: r rows

// y[0 : N, 0 : nc] (+)= x[0 : N, 0 : kc] · B for one K block, B in panels kPanel wide: panel p at b + p·panel_stride,
// its rows ldb apart. A partial last panel is read whole (the caller zero-pads it) and written only where it lies.
void multiply_panels(const float* x, int64_t N, int64_t ldx, const float* b, int64_t ldb, int64_t panel_stride,
                     int64_t kc, int64_t nc, float* y, int64_t ldy, bool accumulate) {
    for (int64_t i = 0; i < N; i += kRows) {
        const int64_t rows = std::min(kRows, N - i);
        const MicroKernel kernel = kMicroKernels[static_cast<size_t>(rows - 1)];
        const float* xi = x + i * ldx;
        for (int64_t j = 0, p = 0; j < nc; j += kPanel, ++p) {
            float* yij = y + i * ldy + j;
            const int64_t width = std::min(kPanel, nc - j);
            if (width == kPanel) {
                kernel(xi, ldx, b + p * panel_stride, ldb, kc, yij, ldy, accumulate);
                continue;
            }
            float tile[kRows * kPanel] = {};  // (rows, kPanel): the partial panel's outputs
            if (accumulate)
                for (int64_t r = 0; r < rows; ++r) std::memcpy(tile + r * kPanel, yij + r * ldy, width * sizeof(float));
            kernel(xi, ldx, b + p * panel_stride, ldb, kc, tile, kPanel, accumulate);
            for (int64_t r = 0; r < rows; ++r) std::memcpy(yij + r * ldy, tile + r * kPanel, width * sizeof(float));
        }
    }
}

// Panels of W (kc, nc) row-major, rows ldw apart, to `out`: panel p (kc, kPanel) at out + p·kc·kPanel, zero-padded.
void pack_in_out(const float* W, int64_t ldw, int64_t kc, int64_t nc, float* out) {
    for (int64_t k = 0; k < kc; ++k) {  // row k's stretch of every panel, read front to back
        const float* row = W + k * ldw;
        for (int64_t j = 0, p = 0; j < nc; j += kPanel, ++p) {
            float* dst = out + (p * kc + k) * kPanel;
            const int64_t width = std::min(kPanel, nc - j);
            std::memcpy(dst, row + j, width * sizeof(float));
            std::fill(dst + width, dst + kPanel, 0.0f);
        }
    }
}

// The same panels of Wᵀ, W (nc, kc) row-major with rows ldw apart: panel p's row k is W[p·kPanel + 0 .. kPanel][k].
void pack_out_in(const float* W, int64_t ldw, int64_t kc, int64_t nc, float* out) {
    for (int64_t j = 0, p = 0; j < nc; j += kPanel, ++p) {
        float* panel = out + p * kc * kPanel;
        const int64_t width = std::min(kPanel, nc - j);
        for (int64_t c = 0; c < width; ++c) {  // W's row j + c becomes the panel's column c
            const float* src = W + (j + c) * ldw;
            for (int64_t k = 0; k < kc; ++k) panel[k * kPanel + c] = src[k];
        }
        for (int64_t k = 0; k < kc && width < kPanel; ++k)
            std::fill(panel + k * kPanel + width, panel + (k + 1) * kPanel, 0.0f);
    }
}

enum class Stored { in_out, out_in };  // W (K, n) or W (n, K)

void gemm(Stored layout, const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n,
          float* y, int64_t ldy) {
    assert(N >= 0 && K >= 0 && n >= 0 && ldx >= K && ldy >= n && ldw >= (layout == Stored::in_out ? n : K));
    if (N == 0 || n == 0) return;
    if (K == 0) {
        for (int64_t i = 0; i < N; ++i) std::fill(y + i * ldy, y + i * ldy + n, 0.0f);
        return;
    }
    const bool unpacked = layout == Stored::in_out && N <= kUnpackedRows;
    const int64_t padded = (std::min(kBlockColumns, n) + kPanel - 1) / kPanel * kPanel;
    // (panels, kc, kPanel) for one K block, 64-byte aligned; every float the kernels read is written first.
    const auto storage =
        std::make_unique_for_overwrite<float[]>(static_cast<size_t>(std::min(kDepth, K) * padded + 16));
    float* packed = storage.get() + (16 - reinterpret_cast<uintptr_t>(storage.get()) / sizeof(float) % 16) % 16;
    for (int64_t j0 = 0; j0 < n; j0 += kBlockColumns) {
        const int64_t nc = std::min(kBlockColumns, n - j0);
        for (int64_t k0 = 0; k0 < K; k0 += kDepth) {
            const int64_t kc = std::min(kDepth, K - k0);
            const bool accumulate = k0 > 0;
            if (unpacked) {  // whole panels straight from W's rows, a partial last one through `packed`
                const int64_t whole = nc / kPanel * kPanel;
                const float* w = W + k0 * ldw + j0;
                multiply_panels(x + k0, N, ldx, w, ldw, kPanel, kc, whole, y + j0, ldy, accumulate);
                if (whole == nc) continue;
                pack_in_out(w + whole, ldw, kc, nc - whole, packed);
                multiply_panels(x + k0, N, ldx, packed, kPanel, kc * kPanel, kc, nc - whole, y + j0 + whole, ldy,
                                accumulate);
                continue;
            }
            if (layout == Stored::in_out)
                pack_in_out(W + k0 * ldw + j0, ldw, kc, nc, packed);
            else
                pack_out_in(W + j0 * ldw + k0, ldw, kc, nc, packed);
            multiply_panels(x + k0, N, ldx, packed, kPanel, kc * kPanel, kc, nc, y + j0, ldy, accumulate);
        }
    }
}

}  // namespace

void gemm_in_out(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n, float* y,
                 int64_t ldy) {
    gemm(Stored::in_out, x, N, K, ldx, W, ldw, n, y, ldy);
}

void gemm_out_in(const float* x, int64_t N, int64_t K, int64_t ldx, const float* W, int64_t ldw, int64_t n, float* y,
                 int64_t ldy) {
    gemm(Stored::out_in, x, N, K, ldx, W, ldw, n, y, ldy);
}

}  // namespace attnlab
