// y = (x − mean) / √(var + ε) · γ + β, one row at a time; a row's bits depend on the row alone
// (ops/lane_sum.h), wherever it lies.
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

}  // namespace attnlab
