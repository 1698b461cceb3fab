#include "ops/alibi.h"

#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

// 2^(−8/n) for n heads, a power of two: the ratio of the geometric sequence of n slopes.
float slope_base(int n) { return static_cast<float>(std::exp2(-8.0 / static_cast<double>(n))); }

}  // namespace

std::vector<float> alibi_slopes(int n_heads) {
    assert(n_heads >= 1);
    int p = 1;  // the largest power of two ≤ H
    while (p * 2 <= n_heads) p *= 2;
    std::vector<float> slopes;
    const float base = slope_base(p);
    for (int k = 1; k <= p; ++k) slopes.push_back(std::pow(base, static_cast<float>(k)));
    const float extra_base = slope_base(2 * p);
    for (int k = 0; k < n_heads - p; ++k) slopes.push_back(std::pow(extra_base, static_cast<float>(2 * k + 1)));
    return slopes;
}

Tensor alibi_bias(const std::vector<float>& slopes, int64_t n) {
    const auto H = static_cast<int64_t>(slopes.size());
    Tensor out({H, n, n});
    float* o = out.data.data();
    for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) *o++ = -slopes[static_cast<size_t>(h)] * static_cast<float>(i - j);
    return out;
}

}  // namespace attnlab
