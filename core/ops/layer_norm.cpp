// y = (x − mean) / √(var + ε) · γ + β, one row at a time.
#include "ops/layer_norm.h"

#include <cassert>
#include <cmath>

namespace attnlab {

Tensor layer_norm_forward(const Tensor& x, const Tensor& gain, const Tensor& bias, float eps) {
    const int64_t C = x.dim(-1);
    assert(gain.numel() == C && bias.numel() == C);
    Tensor y(x.shape);
    ConstMatMap in = x.matrix();  // (N, C)
    MatMap out = y.matrix();      // (N, C)
    ConstRowVecMap g(gain.data.data(), C), b(bias.data.data(), C);
    for (int64_t r = 0; r < in.rows(); ++r) {
        const float mean = in.row(r).mean();
        const float var = (in.row(r).array() - mean).square().mean();
        const float inv_std = 1.0f / std::sqrt(var + eps);
        out.row(r) = ((in.row(r).array() - mean) * inv_std * g.array() + b.array()).matrix();
    }
    return y;
}

}  // namespace attnlab
