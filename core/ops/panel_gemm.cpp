#include "ops/panel_gemm.h"

#include "tensor.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <memory>

namespace attnlab {

#if defined(__AVX512F__)

namespace {

using Vec = float __attribute__((vector_size(64)));  // 16 floats, one register
using UnalignedVec = float __attribute__((vector_size(64), aligned(4)));

constexpr int64_t kPanel = 48;            // outputs per panel: three registers
constexpr int kTokens = 8;                // tokens per block: 8 × 3 accumulators + 3 panel registers + 1 broadcast
constexpr int64_t kGroupBytes = 1 << 20;  // panels copied together: up to 1 MB, so they stay in a 2 MB L2
constexpr int64_t kMaxGroup = 8;

// y[0 : R, 0 : 48] = x[0 : R, :] · panel, the panel (in, 48) contiguous.
template <int R>
void multiply_panel(const float* x, int64_t in, const float* panel, float* y, int64_t ldy) {
    Vec a0[R], a1[R], a2[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) a0[r] = a1[r] = a2[r] = Vec{};
    for (int64_t k = 0; k < in; ++k, panel += kPanel) {
        const Vec w0 = *reinterpret_cast<const UnalignedVec*>(panel),
                  w1 = *reinterpret_cast<const UnalignedVec*>(panel + 16),
                  w2 = *reinterpret_cast<const UnalignedVec*>(panel + 32);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const float xv = x[r * in + k];
            a0[r] += xv * w0;
            a1[r] += xv * w1;
            a2[r] += xv * w2;
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        *reinterpret_cast<UnalignedVec*>(y + r * ldy) = a0[r];
        *reinterpret_cast<UnalignedVec*>(y + r * ldy + 16) = a1[r];
        *reinterpret_cast<UnalignedVec*>(y + r * ldy + 32) = a2[r];
    }
}

using PanelKernel = void (*)(const float*, int64_t, const float*, float*, int64_t);
constexpr PanelKernel kKernels[kTokens + 1] = {nullptr,           multiply_panel<1>, multiply_panel<2>,
                                               multiply_panel<3>, multiply_panel<4>, multiply_panel<5>,
                                               multiply_panel<6>, multiply_panel<7>, multiply_panel<8>};

}  // namespace

bool panel_gemm_available() { return true; }

void panel_gemm_in_out(const float* x, int64_t N, int64_t in, const float* W, int64_t ldw, int64_t c0, int64_t n,
                       float* y, int64_t ldy) {
    const int64_t group =
        std::clamp<int64_t>(kGroupBytes / (in * kPanel * static_cast<int64_t>(sizeof(float))), 1, kMaxGroup);
    // (group, in, 48), not zero-filled: every float read was copied in first.
    const auto packed = std::make_unique_for_overwrite<float[]>(static_cast<size_t>(group * in * kPanel));
    const int64_t panels = n / kPanel;
    for (int64_t g0 = 0; g0 < panels; g0 += group) {
        const int64_t g = std::min(group, panels - g0);
        for (int64_t k = 0; k < in; ++k) {  // row k's stretch of g panels, read front to back
            const float* row = W + k * ldw + c0 + g0 * kPanel;
            for (int64_t p = 0; p < g; ++p)
                std::memcpy(packed.get() + (p * in + k) * kPanel, row + p * kPanel, kPanel * sizeof(float));
        }
        for (int64_t p = 0; p < g; ++p) {
            const float* panel = packed.get() + p * in * kPanel;
            float* out = y + (g0 + p) * kPanel;
            for (int64_t t = 0; t < N; t += kTokens) {
                const auto rows = static_cast<int>(std::min<int64_t>(kTokens, N - t));
                kKernels[rows](x + t * in, in, panel, out + t * ldy, ldy);
            }
        }
    }
    const int64_t done = panels * kPanel;
    if (done < n) {  // fewer than 48 outputs left
        Eigen::Map<const Mat> xs(x, N, in);
        Eigen::Map<const Mat, 0, Eigen::OuterStride<>> w(W + c0 + done, in, n - done, Eigen::OuterStride<>(ldw));
        Eigen::Map<Mat, 0, Eigen::OuterStride<>> rest(y + done, N, n - done, Eigen::OuterStride<>(ldy));
        rest.noalias() = xs * w;
    }
}

#else

bool panel_gemm_available() { return false; }

void panel_gemm_in_out(const float*, int64_t, int64_t, const float*, int64_t, int64_t, int64_t, float*, int64_t) {
    assert(false && "panel_gemm_in_out needs AVX-512");
}

#endif

}  // namespace attnlab
