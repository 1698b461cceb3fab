#include "ops/routing.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace attnlab {

std::vector<int> top_k_experts(const float* logits, int n_experts, int k) {
    assert(k >= 1 && k <= n_experts);
    std::vector<int> order(static_cast<size_t>(n_experts));
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [logits](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
    order.resize(static_cast<size_t>(k));
    return order;
}

namespace {

// One row's softmax p (E,) over its logits.
std::vector<float> softmax_of(const float* logits, int E) {
    const float top = *std::max_element(logits, logits + E);
    std::vector<float> p(static_cast<size_t>(E));
    float sum = 0.0f;
    for (int e = 0; e < E; ++e) sum += p[e] = std::exp(logits[e] - top);
    for (float& x : p) x /= sum;
    return p;
}

}  // namespace

Tensor route_top_k(const Tensor& logits, int k, bool normalize, const std::set<int>& ablated) {
    assert(logits.rank() == 2);
    const int64_t N = logits.dim(0);
    const int E = static_cast<int>(logits.dim(1));
    Tensor w({N, logits.dim(1)});  // (N, E), zeros
    for (int64_t t = 0; t < N; ++t) {
        const float* l = logits.data.data() + t * E;
        const std::vector<float> p = softmax_of(l, E);
        const std::vector<int> chosen = top_k_experts(l, E, k);
        float sum = 0.0f;
        for (int e : chosen) sum += p[e];
        for (int e : chosen)
            if (!ablated.count(e)) w.data[t * E + e] = normalize ? p[e] / sum : p[e];
    }
    return w;
}

// For i chosen: w_i = p_i / s (s = Σ_chosen p, or 1 without normalize; an ablated w_i is 0), so
// dL/dp_i = (dw_i − Σ_j dw_j·w_j) / s with normalize (dw of an ablated expert 0), dw_i without; then
// dL/dlogits = p ⊙ (dp − Σ dp·p).
Tensor route_top_k_backward(const Tensor& logits, int k, bool normalize, const std::set<int>& ablated,
                            const Tensor& d_routing) {
    assert(logits.shape == d_routing.shape);
    const int64_t N = logits.dim(0);
    const int E = static_cast<int>(logits.dim(1));
    Tensor d_logits({N, logits.dim(1)});
    for (int64_t t = 0; t < N; ++t) {
        const float* l = logits.data.data() + t * E;
        const float* dw = d_routing.data.data() + t * E;
        const std::vector<float> p = softmax_of(l, E);
        const std::vector<int> chosen = top_k_experts(l, E, k);
        auto dw_of = [&](int e) { return ablated.count(e) ? 0.0f : dw[e]; };  // an ablated weight is a constant 0
        float s = 1.0f;
        if (normalize) {
            s = 0.0f;
            for (int e : chosen) s += p[e];
        }
        float dw_dot_w = 0.0f;  // the ablated still count in s, so their p gets −Σ dw·w / s
        if (normalize)
            for (int e : chosen) dw_dot_w += dw_of(e) * p[e] / s;
        std::vector<float> dp(static_cast<size_t>(E), 0.0f);
        for (int e : chosen) dp[e] = normalize ? (dw_of(e) - dw_dot_w) / s : dw_of(e);
        float dp_dot_p = 0.0f;
        for (int e = 0; e < E; ++e) dp_dot_p += dp[e] * p[e];
        for (int e = 0; e < E; ++e) d_logits.data[t * E + e] = p[e] * (dp[e] - dp_dot_p);
    }
    return d_logits;
}

}  // namespace attnlab
