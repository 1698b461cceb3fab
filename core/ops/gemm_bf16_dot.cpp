// y = bf16(x)·W and y = bf16(x)·Wᵀ by vdpbf16ps (gemm_bf16_dot.h). vdpbf16ps takes, in each of a register's 16 lanes,
// a pair of BF16 values from each operand and adds both products to the lane's float: pairs along k. So x is rounded to
// BF16 once, two neighbouring k to a 32-bit word; W is packed into panels whose word (p, c) holds W(2p, c) and
// W(2p + 1, c) (gathered from an (out, in) W, interleaved from an (in, out) one), and a register-blocked micro-kernel
// broadcasts one word of x against three registers of a panel, as gemm.cpp's F32 kernel does with one float. A
// single row of x reads W in place instead. Every function that uses AVX-512 carries the target attribute: the build
// may not (-march other than native), and such code runs only after cpu_has_bf16_dot().
#include "ops/gemm_bf16_dot.h"
#include "ops/micro_kernel_table.h"

#if ATTNLAB_BF16_DOT

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <memory>
#include <utility>

#define ATTNLAB_BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

namespace attnlab {

namespace {

constexpr int64_t kLanes = 16;        // floats, and words of two BF16, in a register
constexpr int64_t kPanel = 48;        // output columns per panel: three registers
constexpr int64_t kRows = 8;          // rows of x per micro-kernel: 24 accumulators, 3 registers of W, 1 broadcast
constexpr int64_t kDepthPairs = 256;  // K block of 512 k: a tile's rows of bf16(x) (8 × 1 KB) stay in L1
constexpr int64_t kBlockPanels = 10;  // a K block's panels: 10 × 256 words × 48 × 4 B = 480 KB, half of a 1 MB L2
constexpr int64_t kBlockColumns = kBlockPanels * kPanel;
constexpr int64_t kRowColumns = 1024;  // a single (in, out) row's stretch of accumulators, 4 KB

constexpr int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// The first `count` of 16 lanes (none for count ≤ 0, all for count ≥ 16).
__mmask16 first_lanes(int64_t count) {
    return count >= 16 ? __mmask16(0xFFFF) : count <= 0 ? __mmask16(0) : __mmask16((1u << count) - 1u);
}
// The same of 32 16-bit lanes.
__mmask32 first_halves(int64_t count) {
    return count >= 32 ? __mmask32(0xFFFFFFFFu) : count <= 0 ? __mmask32(0) : __mmask32((1u << count) - 1u);
}

// An aligned scratch array of n 32-bit words, each written before it is read.
struct Words {
    explicit Words(int64_t n) : storage(new uint32_t[static_cast<size_t>(n + 16)]) {
        data = storage.get() + (16 - reinterpret_cast<uintptr_t>(storage.get()) / sizeof(uint32_t) % 16) % 16;
    }
    std::unique_ptr<uint32_t[]> storage;
    uint32_t* data;
};

// xb (N, ldb) = x (N, K) rounded to BF16 to nearest even (vcvtne2ps2bf16), x's rows ldx apart: word p of a row holds
// k = 2p in its low half and k = 2p + 1 in its high half; words past K are 0 up to ldb (a multiple of 16).
ATTNLAB_BF16_TARGET void round_rows(const float* x, int64_t N, int64_t K, int64_t ldx, uint32_t* xb, int64_t ldb) {
    for (int64_t i = 0; i < N; ++i) {
        const float* row = x + i * ldx;
        for (int64_t k = 0; k < 2 * ldb; k += 2 * kLanes) {
            const __m512 low = _mm512_maskz_loadu_ps(first_lanes(K - k), row + k);
            const __m512 high = _mm512_maskz_loadu_ps(first_lanes(K - k - kLanes), row + k + kLanes);
            const __m512bh words = _mm512_cvtne2ps_pbh(high, low);  // its second operand goes to the low 16 halves
            _mm512_store_si512(xb + i * ldb + k / 2, (__m512i)words);
        }
    }
}

// y[0 : R, 0 : V·16] (rows ldy apart) = (accumulate ? y : 0) + Σ_p word p of xb's rows · panel row p, p < pairs: each
// lane adds its two exact products per vdpbf16ps. xb's rows ldb words apart, the panel's rows kPanel words apart; the
// last register's lanes read and written only where `last` has a bit (a partial panel's padding stays out of y).
template <int R, int V>
ATTNLAB_BF16_TARGET void micro_kernel(const uint32_t* xb, int64_t ldb, const uint32_t* panel, int64_t pairs, float* y,
                                      int64_t ldy, bool accumulate, __mmask16 last) {
    __m512 acc[R][V];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v)
            acc[r][v] = accumulate ? _mm512_maskz_loadu_ps(v == V - 1 ? last : __mmask16(0xFFFF), y + r * ldy + v * kLanes)
                                   : _mm512_setzero_ps();
    for (int64_t p = 0; p < pairs; ++p, panel += kPanel) {
        __m512bh w[V];
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) w[v] = (__m512bh)_mm512_load_si512(panel + v * kLanes);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const __m512bh xr = (__m512bh)_mm512_set1_epi32(static_cast<int>(xb[r * ldb + p]));
#pragma GCC unroll 4
            for (int v = 0; v < V; ++v) acc[r][v] = _mm512_dpbf16_ps(acc[r][v], xr, w[v]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v)
            _mm512_mask_storeu_ps(y + r * ldy + v * kLanes, v == V - 1 ? last : __mmask16(0xFFFF), acc[r][v]);
}

using MicroKernel = void (*)(const uint32_t*, int64_t, const uint32_t*, int64_t, float*, int64_t, bool, __mmask16);

struct Kernels {
    template <int R, int V>
    static constexpr MicroKernel of() { return micro_kernel<R, V>; }
};
constexpr auto kMicroKernels = micro_kernel_table<MicroKernel, kPanel / kLanes, kRows, Kernels>();

// Panels of W (kc, nc), rows ldw apart, to `out`: panel q (⌈kc / 2⌉, kPanel) at out + q·⌈kc / 2⌉·kPanel, its word
// (p, c) = W[2p][c] | W[2p + 1][c] << 16 (0 past kc and nc). 16 columns of two rows widened to words and merged.
ATTNLAB_BF16_TARGET void pack_in_out(const uint16_t* W, int64_t ldw, int64_t kc, int64_t nc, uint32_t* out) {
    const int64_t pairs = (kc + 1) / 2;
    for (int64_t p = 0; p < pairs; ++p) {
        const uint16_t* first = W + 2 * p * ldw;
        const bool second = 2 * p + 1 < kc;
        for (int64_t j = 0; j < round_up(nc, kPanel); j += kLanes) {
            const __mmask16 columns = first_lanes(nc - j);
            const __m512i low = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(columns, first + j));
            const __m512i high =
                second ? _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(columns, first + ldw + j)) : _mm512_setzero_si512();
            _mm512_store_si512(out + (j / kPanel * pairs + p) * kPanel + j % kPanel,
                               _mm512_or_si512(low, _mm512_slli_epi32(high, 16)));
        }
    }
}

// The same panels of Wᵀ, W (nc, kc) rows ldw apart: word (p, c) = W[c][2p] | W[c][2p + 1] << 16, two neighbours of a
// row as they lie, 16 rows a gather. An odd kc's last k alone, so that no read passes a row's end.
ATTNLAB_BF16_TARGET void pack_out_in(const uint16_t* W, int64_t ldw, int64_t kc, int64_t nc, uint32_t* out) {
    assert(15 * ldw <= INT32_MAX / 2);  // the gather's offsets, in bytes
    const int64_t pairs = (kc + 1) / 2, whole = kc / 2;
    const __m512i rows = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                            _mm512_set1_epi32(static_cast<int>(ldw)));
    for (int64_t j = 0; j < round_up(nc, kPanel); j += kLanes) {
        uint32_t* dst = out + j / kPanel * pairs * kPanel + j % kPanel;
        const __mmask16 columns = first_lanes(nc - j);
        if (columns == 0) {  // a partial panel's padding
            for (int64_t p = 0; p < pairs; ++p) _mm512_store_si512(dst + p * kPanel, _mm512_setzero_si512());
            continue;
        }
        const uint16_t* src = W + j * ldw;
        for (int64_t p = 0; p < whole; ++p)
            _mm512_store_si512(dst + p * kPanel,
                               _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), columns, rows, src + 2 * p, 2));
        if (whole < pairs)
            for (int64_t c = 0; c < kLanes; ++c) dst[whole * kPanel + c] = j + c < nc ? src[c * ldw + kc - 1] : 0u;
    }
}

// y (N, n) = bf16(x)·W from xb (N, ldb), through packed panels a K block at a time: gemm.cpp's loop, on words.
ATTNLAB_BF16_TARGET void multiply_packed(bool out_in, const uint32_t* xb, int64_t N, int64_t K, int64_t ldb,
                                         const uint16_t* W, int64_t ldw, int64_t n, float* y, int64_t ldy) {
    const int64_t pairs = (K + 1) / 2;
    Words packed(std::min(kDepthPairs, pairs) * round_up(std::min(kBlockColumns, n), kPanel));
    for (int64_t j0 = 0; j0 < n; j0 += kBlockColumns) {
        const int64_t nc = std::min(kBlockColumns, n - j0);
        for (int64_t p0 = 0; p0 < pairs; p0 += kDepthPairs) {
            const int64_t pc = std::min(kDepthPairs, pairs - p0), kc = std::min(2 * pc, K - 2 * p0);
            if (out_in)
                pack_out_in(W + j0 * ldw + 2 * p0, ldw, kc, nc, packed.data);
            else
                pack_in_out(W + 2 * p0 * ldw + j0, ldw, kc, nc, packed.data);
            for (int64_t i = 0; i < N; i += kRows) {
                const int64_t rows = std::min(kRows, N - i);
                for (int64_t j = 0, q = 0; j < nc; j += kPanel, ++q) {
                    const int64_t width = std::min(kPanel, nc - j), vecs = (width + kLanes - 1) / kLanes;
                    const MicroKernel kernel = kMicroKernels[static_cast<size_t>(vecs - 1)][static_cast<size_t>(rows - 1)];
                    kernel(xb + i * ldb + p0, ldb, packed.data + q * pc * kPanel, pc, y + i * ldy + j0 + j, ldy, p0 > 0,
                           first_lanes(width - (vecs - 1) * kLanes));
                }
            }
        }
    }
}

// acc += Σ_s word s of xp · (rows[2s], rows[2s + 1]) for S pairs of W's rows, columns [0, nc), 32 at a time. Each pair
// of rows is interleaved in registers by unpacklo / unpackhi, which work within 128-bit lanes: of 32 columns c, the
// first register's lane 4L + m is column 8L + m, the second's column 8L + 4 + m (L, m < 4). acc keeps that order.
template <int S>
ATTNLAB_BF16_TARGET void row_pairs(const uint32_t* xp, const uint16_t* const (&rows)[2 * S], int64_t nc, float* acc) {
    __m512bh xs[S];
#pragma GCC unroll 4
    for (int s = 0; s < S; ++s) xs[s] = (__m512bh)_mm512_set1_epi32(static_cast<int>(xp[s]));
    for (int64_t c = 0; c < nc; c += 2 * kLanes) {
        const __mmask32 columns = first_halves(nc - c);
        __m512 low = _mm512_load_ps(acc + c), high = _mm512_load_ps(acc + c + kLanes);
#pragma GCC unroll 4
        for (int s = 0; s < S; ++s) {
            const __m512i a = _mm512_maskz_loadu_epi16(columns, rows[2 * s] + c);
            const __m512i b = _mm512_maskz_loadu_epi16(columns, rows[2 * s + 1] + c);
            low = _mm512_dpbf16_ps(low, (__m512bh)_mm512_unpacklo_epi16(a, b), xs[s]);
            high = _mm512_dpbf16_ps(high, (__m512bh)_mm512_unpackhi_epi16(a, b), xs[s]);
        }
        _mm512_store_ps(acc + c, low);
        _mm512_store_ps(acc + c + kLanes, high);
    }
}

// y[0 : n] = bf16(x)·W for one row, xb (⌈K / 2⌉ words), W (K, n) rows ldw apart read in place front to back: a
// stretch of kRowColumns columns at a time, four pairs of W's rows at a time, into accumulators in row_pairs' order,
// put back in column order at the end of the stretch.
ATTNLAB_BF16_TARGET void row_in_out(const uint32_t* xb, const uint16_t* W, int64_t ldw, int64_t K, int64_t n, float* y) {
    alignas(64) float acc[kRowColumns];
    alignas(64) static constexpr uint16_t kZeroRow[kRowColumns] = {};  // an odd K's last pair's second row
    // Column c of 32 from row_pairs' two registers (index ≥ 16: the second): 8L + m is lane 4L + m of the first for
    // m < 4, lane 4L + m − 4 of the second otherwise.
    const __m512i first_16 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i last_16 = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    const int64_t whole = K / 2;
    for (int64_t j = 0; j < n; j += kRowColumns) {
        const int64_t nc = std::min(kRowColumns, n - j);
        std::fill(acc, acc + round_up(nc, 2 * kLanes), 0.0f);
        const uint16_t* w = W + j;
        int64_t p = 0;
        for (; p + 4 <= whole; p += 4) {
            const uint16_t* const rows[8] = {w + 2 * p * ldw,       w + (2 * p + 1) * ldw, w + (2 * p + 2) * ldw,
                                             w + (2 * p + 3) * ldw, w + (2 * p + 4) * ldw, w + (2 * p + 5) * ldw,
                                             w + (2 * p + 6) * ldw, w + (2 * p + 7) * ldw};
            row_pairs<4>(xb + p, rows, nc, acc);
        }
        for (; p < whole; ++p) {
            const uint16_t* const rows[2] = {w + 2 * p * ldw, w + (2 * p + 1) * ldw};
            row_pairs<1>(xb + p, rows, nc, acc);
        }
        if (whole * 2 < K) {
            const uint16_t* const rows[2] = {w + 2 * whole * ldw, kZeroRow};
            row_pairs<1>(xb + whole, rows, nc, acc);
        }
        for (int64_t c = 0; c < nc; c += 2 * kLanes) {
            const __m512 low = _mm512_load_ps(acc + c), high = _mm512_load_ps(acc + c + kLanes);
            _mm512_mask_storeu_ps(y + j + c, first_lanes(nc - c), _mm512_permutex2var_ps(low, first_16, high));
            _mm512_mask_storeu_ps(y + j + c + kLanes, first_lanes(nc - c - kLanes),
                                  _mm512_permutex2var_ps(low, last_16, high));
        }
    }
}

// t[c] = column c of the 16 × 16 words r (t[c] lane i = r[i] lane c): unpacks within 128-bit lanes, then 128-bit
// lanes moved across registers, as gemm.cpp's transpose_16x16 does with floats.
ATTNLAB_BF16_TARGET void columns_16x16(const __m512i (&r)[16], __m512i (&t)[16]) {
    __m512i a[16], b[16];
    for (int i = 0; i < 16; i += 2) {
        a[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        a[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {  // b[i + m], 128-bit lane L: column 4L + m of rows i … i + 3
        b[i] = _mm512_unpacklo_epi64(a[i], a[i + 2]);
        b[i + 1] = _mm512_unpackhi_epi64(a[i], a[i + 2]);
        b[i + 2] = _mm512_unpacklo_epi64(a[i + 1], a[i + 3]);
        b[i + 3] = _mm512_unpackhi_epi64(a[i + 1], a[i + 3]);
    }
    for (int m = 0; m < 4; ++m) {  // lanes (0, 2 | 0, 2) and (1, 3 | 1, 3) of row groups 0 and 1, then 2 and 3
        a[m] = _mm512_shuffle_i32x4(b[m], b[m + 4], _MM_SHUFFLE(2, 0, 2, 0));
        a[m + 4] = _mm512_shuffle_i32x4(b[m], b[m + 4], _MM_SHUFFLE(3, 1, 3, 1));
        a[m + 8] = _mm512_shuffle_i32x4(b[m + 8], b[m + 12], _MM_SHUFFLE(2, 0, 2, 0));
        a[m + 12] = _mm512_shuffle_i32x4(b[m + 8], b[m + 12], _MM_SHUFFLE(3, 1, 3, 1));
    }
    for (int m = 0; m < 4; ++m) {  // columns m, m + 8, m + 4, m + 12: all 16 rows each
        t[m] = _mm512_shuffle_i32x4(a[m], a[m + 8], _MM_SHUFFLE(2, 0, 2, 0));
        t[m + 8] = _mm512_shuffle_i32x4(a[m], a[m + 8], _MM_SHUFFLE(3, 1, 3, 1));
        t[m + 4] = _mm512_shuffle_i32x4(a[m + 4], a[m + 12], _MM_SHUFFLE(2, 0, 2, 0));
        t[m + 12] = _mm512_shuffle_i32x4(a[m + 4], a[m + 12], _MM_SHUFFLE(3, 1, 3, 1));
    }
}

// y[0 : n] = bf16(x)·Wᵀ for one row, xb (⌈K / 2⌉ words), W (n, K) rows ldw apart read in place: 16 outputs to a
// register, 16 words (32 k) of each of their 16 rows loaded and turned into columns in registers, then multiplied in
// pair order, so that each output adds its pairs in the order of the panels' micro-kernel, bit for bit. (Packing a
// single row's panels gathers every word of W once, to use it once: three times slower.)
ATTNLAB_BF16_TARGET void row_out_in(const uint32_t* xb, const uint16_t* W, int64_t ldw, int64_t K, int64_t n, float* y) {
    const int64_t pairs = (K + 1) / 2;
    for (int64_t j = 0; j < n; j += kLanes) {
        const int64_t outputs = std::min(kLanes, n - j);
        __m512 acc = _mm512_setzero_ps();
        for (int64_t p = 0; p < pairs; p += kLanes) {
            const __mmask32 depth = first_halves(K - 2 * p);  // W is read only below K
            __m512i rows[16], columns[16];
            for (int64_t c = 0; c < kLanes; ++c)
                rows[c] = c < outputs ? _mm512_maskz_loadu_epi16(depth, W + (j + c) * ldw + 2 * p) : _mm512_setzero_si512();
            columns_16x16(rows, columns);
            const int64_t steps = std::min(kLanes, pairs - p);  // no pair past K: the chains stay the panels'
            for (int64_t q = 0; q < steps; ++q)
                acc = _mm512_dpbf16_ps(acc, (__m512bh)_mm512_set1_epi32(static_cast<int>(xb[p + q])), (__m512bh)columns[q]);
        }
        _mm512_mask_storeu_ps(y + j, first_lanes(outputs), acc);
    }
}

ATTNLAB_BF16_TARGET void gemm_dot(bool out_in, const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W,
                                  int64_t ldw, int64_t n, float* y, int64_t ldy) {
    assert(N >= 0 && K > 0 && n >= 0 && ldx >= K && ldy >= n && ldw >= (out_in ? K : n));
    if (N == 0 || n == 0) return;
    const int64_t ldb = round_up((K + 1) / 2, kLanes);  // words of a row of bf16(x)
    Words xb(N * ldb);
    round_rows(x, N, K, ldx, xb.data, ldb);
    // Every way adds each output's pairs in k order, one vdpbf16ps each, so a row alone equals the same row among
    // others, bit for bit (the stepper re-runs single rows).
    if (N == 1 && out_in)
        row_out_in(xb.data, W, ldw, K, n, y);
    else if (N == 1)
        row_in_out(xb.data, W, ldw, K, n, y);
    else
        multiply_packed(out_in, xb.data, N, K, ldb, W, ldw, n, y, ldy);
}

}  // namespace

void gemm_in_out_bf16_dot(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                          float* y, int64_t ldy) {
    gemm_dot(false, x, N, K, ldx, W, ldw, n, y, ldy);
}

void gemm_out_in_bf16_dot(const float* x, int64_t N, int64_t K, int64_t ldx, const uint16_t* W, int64_t ldw, int64_t n,
                          float* y, int64_t ldy) {
    gemm_dot(true, x, N, K, ldx, W, ldw, n, y, ldy);
}

}  // namespace attnlab

#endif
