// y = x / √(mean(x²) + ε) · γ, one row at a time; a row's bits depend on the row alone (ops/lane_sum.h).
#include "ops/rms_norm.h"

#include "ops/lane_sum.h"
#include "parallel.h"

#include <cassert>
#include <cmath>
#include <vector>

namespace attnlab {

Tensor rms_norm_forward(const Tensor& x, const Tensor& gain, float eps) {
    const int64_t W = x.dim(-1);
    assert(gain.numel() == W);
    Tensor y = Tensor::uninitialized(x.shape);  // every row written whole
    const float* g = gain.data.data();
    parallel_rows(W == 0 ? 0 : x.numel() / W, W, [&](int64_t first, int64_t end) {
        std::vector<float> squares(static_cast<size_t>(W));  // (W,)
        for (int64_t r = first; r < end; ++r) {
            const float* in = x.data.data() + r * W;
            float* out = y.data.data() + r * W;
            for (int64_t c = 0; c < W; ++c) squares[static_cast<size_t>(c)] = in[c] * in[c];
            const float mean_square = lane_sum(squares.data(), W) / static_cast<float>(W);
            const float inv_rms = 1.0f / std::sqrt(mean_square + eps);
            for (int64_t c = 0; c < W; ++c) out[c] = g[c] * (in[c] * inv_rms);
        }
    });
    return y;
}

// With r = 1/√(mean(x²) + ε), y = γ ⊙ x·r and g = dy ⊙ γ:  dx = r·(g − x·r²·mean(g ⊙ x)),  dγ += dy ⊙ x·r.
Tensor rms_norm_backward(const Tensor& x, const Tensor& gain, float eps, const Tensor& dy, Tensor& dgain) {
    const int64_t W = x.dim(-1);
    assert(gain.numel() == W && dgain.numel() == W && dy.shape == x.shape);
    Tensor dx(x.shape);
    RowVecMap dg(dgain.data.data(), W);
    ConstRowVecMap g(gain.data.data(), W);
    for (int64_t r = 0, rows = W == 0 ? 0 : x.numel() / W; r < rows; ++r) {
        ConstRowVecMap in(x.data.data() + r * W, W), d(dy.data.data() + r * W, W);
        const double mean_square = static_cast<double>(in.squaredNorm()) / static_cast<double>(W);
        const double inv_rms = 1.0 / std::sqrt(mean_square + static_cast<double>(eps));
        const RowVec dn = d.cwiseProduct(g);  // dL/d(x·r)
        const double mean_gx = static_cast<double>(dn.dot(in)) / static_cast<double>(W);
        RowVecMap(dx.data.data() + r * W, W) = (dn.array() * static_cast<float>(inv_rms) -
                                                in.array() * static_cast<float>(inv_rms * inv_rms * inv_rms * mean_gx))
                                                   .matrix();
        dg += (d.array() * in.array() * static_cast<float>(inv_rms)).matrix();
    }
    return dx;
}

}  // namespace attnlab
