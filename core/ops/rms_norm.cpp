// y = x / √(mean(x²) + ε) · γ, one row at a time; a row's bits depend on the row alone (ops/lane_sum.h).
#include "ops/rms_norm.h"

#include "ops/lane_sum.h"

#include <cassert>
#include <cmath>
#include <vector>

namespace attnlab {

Tensor rms_norm_forward(const Tensor& x, const Tensor& gain, float eps) {
    const int64_t W = x.dim(-1);
    assert(gain.numel() == W);
    Tensor y(x.shape);
    const float* g = gain.data.data();
    std::vector<float> squares(static_cast<size_t>(W));  // (W,)
    for (int64_t r = 0, rows = W == 0 ? 0 : x.numel() / W; r < rows; ++r) {
        const float* in = x.data.data() + r * W;
        float* out = y.data.data() + r * W;
        for (int64_t c = 0; c < W; ++c) squares[static_cast<size_t>(c)] = in[c] * in[c];
        const float mean_square = lane_sum(squares.data(), W) / static_cast<float>(W);
        const float inv_rms = 1.0f / std::sqrt(mean_square + eps);
        for (int64_t c = 0; c < W; ++c) out[c] = g[c] * (in[c] * inv_rms);
    }
    return y;
}

}  // namespace attnlab
