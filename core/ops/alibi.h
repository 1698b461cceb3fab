// ALiBi (Press, Smith & Lewis 2021, "Train Short, Test Long"): no position is added to the embeddings; each
// head h adds a fixed penalty to its scores that grows linearly with the distance from query i back to key j:
//   bias[h, i, j] = −m_h·(i − j)
// The slopes m_h are a geometric sequence. For H a power of two: m_h = 2^(−8(h+1)/H), h = 0 … H−1 (8 heads:
// 1/2, 1/4, …, 1/256). Otherwise (BLOOM's build_alibi_tensor): the P = 2^⌊log2 H⌋ slopes of P heads, then the
// H − P heads left take every other slope of 2P heads, 2^(−8(2k+1)/(2P)) for k = 0 … H−P−1 (6 heads: 1/4, 1/16,
// 1/64, 1/256, then 1/2, 1/8).
#pragma once

#include "tensor.h"

#include <vector>

namespace attnlab {

// (H,) the slopes m_h, computed in float as BLOOM's build_alibi_tensor does (base^power in float32).
std::vector<float> alibi_slopes(int n_heads);
// (H, N, N) bias[h, i, j] = −m_h·(i − j) for every query i and key j (the causal mask hides j > i, where it is
// positive).
Tensor alibi_bias(const std::vector<float>& slopes, int64_t n);

}  // namespace attnlab
