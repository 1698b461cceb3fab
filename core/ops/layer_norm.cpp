// y = (x − mean) / √(var + ε) · γ + β, one row at a time; a row's bits depend on the row alone
// (ops/lane_sum.h), wherever it lies. The backward, dx = r · (g − mean(g) − x̂ · mean(g ⊙ x̂)), by Eigen.
#include "ops/layer_norm.h"

#include "ops/lane_sum.h"
#include "parallel.h"

#include <cassert>
#include <cmath>
#include <vector>

namespace attnlab {

Tensor layer_norm_forward(const Tensor& x, const Tensor& gain, const Tensor& bias, float eps) {
    const int64_t C = x.dim(-1);
    assert(gain.numel() == C && bias.numel() == C);
    Tensor y = Tensor::uninitialized(x.shape);  // every row written whole
    const float* g = gain.data.data();
    const float* b = bias.data.data();
    parallel_rows(C == 0 ? 0 : x.numel() / C, C, [&](int64_t first, int64_t end) {
        std::vector<float> centred(static_cast<size_t>(C));  // (C,) x − mean, then its squares
        for (int64_t r = first; r < end; ++r) {
            const float* in = x.data.data() + r * C;
            float* out = y.data.data() + r * C;
            const float mean = lane_sum(in, C) / static_cast<float>(C);
            for (int64_t c = 0; c < C; ++c) centred[static_cast<size_t>(c)] = (in[c] - mean) * (in[c] - mean);
            const float var = lane_sum(centred.data(), C) / static_cast<float>(C);
            const float inv_std = 1.0f / std::sqrt(var + eps);
            for (int64_t c = 0; c < C; ++c) out[c] = (in[c] - mean) * inv_std * g[c] + b[c];
        }
    });
    return y;
}

Tensor layer_norm_backward(const Tensor& x, const Tensor& gain, float eps, const Tensor& dy, Tensor* dgain,
                           Tensor* dbias) {
    const int64_t C = x.dim(-1);
    assert(gain.numel() == C && dy.shape == x.shape);
    ConstMatMap in = x.matrix();    // (N, C)
    ConstMatMap dym = dy.matrix();  // (N, C)
    ConstRowVecMap g(gain.data.data(), C);
    Tensor dx = Tensor::uninitialized(x.shape);  // every row written below
    MatMap out = dx.matrix();                    // (N, C)
    assert(!dgain || dgain->numel() == C);
    if (dbias) {
        assert(dbias->numel() == C);
        RowVecMap(dbias->data.data(), C) += dym.colwise().sum();  // dβ += Σ dy
    }

    // With x̂ = (x − mean)·r, r = 1/√(var + ε), and g = dy ⊙ γ (= dL/dx̂):
    //   dx = r · (g − mean(g) − x̂ · mean(g ⊙ x̂)),   dγ += Σ dy ⊙ x̂
    RowVec xhat(C), dxhat(C);  // (C)
    const float inv_c = 1.0f / static_cast<float>(C);
    for (int64_t r = 0; r < in.rows(); ++r) {
        // The same statistics, in the same order, as layer_norm_forward.
        const float mean = in.row(r).mean();
        const float var = (in.row(r).array() - mean).square().mean();
        const float inv_std = 1.0f / std::sqrt(var + eps);
        xhat = ((in.row(r).array() - mean) * inv_std).matrix();
        dxhat = dym.row(r).cwiseProduct(g);
        const float mean_g = dxhat.sum() * inv_c;
        const float mean_gx = dxhat.dot(xhat) * inv_c;
        out.row(r) = ((dxhat.array() - mean_g - xhat.array() * mean_gx) * inv_std).matrix();
        if (dgain) RowVecMap(dgain->data.data(), C) += dym.row(r).cwiseProduct(xhat);
    }
    return dx;
}

}  // namespace attnlab
