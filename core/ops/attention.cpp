// The stages of multi-head scaled dot-product attention.
#include "ops/attention.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace attnlab {

Tensor split_heads(const Tensor& x, int64_t n_heads) {
    assert(x.rank() == 2 && x.dim(1) % n_heads == 0);
    const int64_t T = x.dim(0), C = x.dim(1), D = C / n_heads;
    Tensor out({n_heads, T, D});
    for (int64_t h = 0; h < n_heads; ++h) out.slice(h) = x.matrix().middleCols(h * D, D);
    return out;
}

Tensor merge_heads(const Tensor& x) {
    assert(x.rank() == 3);
    const int64_t H = x.dim(0), T = x.dim(1), D = x.dim(2);
    Tensor out({T, H * D});
    for (int64_t h = 0; h < H; ++h) out.matrix().middleCols(h * D, D) = x.slice(h);
    return out;
}

Tensor attention_scores(const Tensor& q, const Tensor& k) {
    assert(q.rank() == 3 && k.rank() == 3 && q.dim(0) == k.dim(0) && q.dim(2) == k.dim(2));
    Tensor s({q.dim(0), q.dim(1), k.dim(1)});
    for (int64_t h = 0; h < q.dim(0); ++h) s.slice(h).noalias() = q.slice(h) * k.slice(h).transpose();
    return s;
}

Tensor scale_scores(const Tensor& scores, float d_head) {
    Tensor out = scores;
    const float inv = 1.0f / std::sqrt(d_head);
    for (float& x : out.data) x *= inv;
    return out;
}

Tensor mask_scores(const Tensor& scaled, const Tensor& mask) {
    assert(scaled.rank() == 3 && mask.rank() == 2 && mask.dim(0) == scaled.dim(1) && mask.dim(1) == scaled.dim(2));
    Tensor out = scaled;
    const size_t cells = mask.data.size();
    for (int64_t h = 0; h < scaled.dim(0); ++h)
        for (size_t i = 0; i < cells; ++i)
            if (mask.data[i] == 0.0f) out.data[h * cells + i] = -std::numeric_limits<float>::infinity();
    return out;
}

Tensor attention_context(const Tensor& weights, const Tensor& v, const std::set<int>& ablated) {
    assert(weights.rank() == 3 && v.rank() == 3 && weights.dim(0) == v.dim(0) && weights.dim(2) == v.dim(1));
    Tensor ctx({weights.dim(0), weights.dim(1), v.dim(2)});
    for (int64_t h = 0; h < weights.dim(0); ++h) {
        if (ablated.count(static_cast<int>(h))) continue;  // an ablated head contributes nothing
        ctx.slice(h).noalias() = weights.slice(h) * v.slice(h);
    }
    return ctx;
}

}  // namespace attnlab
