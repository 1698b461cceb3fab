// Multi-head attention over a padded batch, forward and backward, for training and batched decoding.
// Same arithmetic as the stepper's attention steps: softmax(Q·Kᵀ/√D + mask)·V, heads concatenated, ·W_Oᵀ + b_O.
// B pairs, Tq queries and Tk keys per pair, C = H·D. Rows are pair-major: row b·Tq + i is query i of pair b.
#pragma once

#include "tensor.h"
#include "train/gradients.h"
#include "weights.h"

#include <set>
#include <string>
#include <vector>

namespace attnlab {

// Which keys a query may see: key j of pair b is hidden when key_ids[b·Tk + j] is <pad>,
// and with causal also when j > i.
struct KeyVisibility {
    const std::vector<int>* key_ids = nullptr;  // (B, Tk)
    int pad_id = 0;
    bool causal = false;
};

struct AttentionCache {
    Tensor xq, xkv;  // inputs (B·Tq, C), (B·Tk, C); xkv is empty for self-attention
    Tensor q, k, v;  // (B·Tq, C), (B·Tk, C), (B·Tk, C): heads side by side
    Tensor weights;  // (B, H, Tq, Tk)
    Tensor concat;   // (B·Tq, C)
};

struct AttentionShape {
    int B = 0, Tq = 0, Tk = 0, n_heads = 1;
};

// params: prefix of in_proj_weight (3C, C), in_proj_bias (3C), out_proj.{weight,bias} (C, C), (C).
// xkv == nullptr means self-attention (keys and values from xq). Returns (B·Tq, C).
Tensor batched_attention_forward(const Weights& weights, const std::string& params, const AttentionShape& shape,
                                 const Tensor& xq, const Tensor* xkv, const KeyVisibility& visibility,
                                 const std::set<int>& ablated_heads, AttentionCache& cache);

// How much attention rows look at the same keys, as dot products of rows (Σ over keys of p·p'; 1 for two
// rows on the same single key, 0 for rows on different keys), over pairs b, heads h and query rows i
// that see a key (ablated heads left out):
//   across_heads   = Σ_b Σ_i Σ_{h<h'} p_h[b,i]·p_h'[b,i]    heads that copy each other, over `rows` rows
//   across_queries = Σ_b Σ_h Σ_{i<i'} p_h[b,i]·p_h[b,i']   a head whose queries all look at the same keys
//                                                           (a "sink" on <eos>), over `row_pairs` pairs of rows
struct AttentionOverlap {
    double across_heads = 0.0, across_queries = 0.0;
    int64_t rows = 0, row_pairs = 0;
};
AttentionOverlap attention_overlap(const AttentionCache& cache, const AttentionShape& shape,
                                   const std::set<int>& ablated_heads);

// The weight of each overlap in the loss (0: none): the loss holds heads · across_heads + queries ·
// across_queries, whose gradient on p_h[b,i] is heads · Σ_{h'≠h} p_h'[b,i] + queries · Σ_{i'≠i} p_h[b,i'].
struct OverlapScales {
    float heads = 0.0f, queries = 0.0f;
    bool any() const { return heads != 0.0f || queries != 0.0f; }
};

// dout (B·Tq, C) -> dxq (B·Tq, C). For cross-attention dxkv (B·Tk, C) receives += the keys' and values'
// gradient; for self-attention that gradient is already added into the result. Parameter grads accumulate,
// the overlap penalty's (OverlapScales) included.
Tensor batched_attention_backward(const Weights& weights, const std::string& params, const AttentionShape& shape,
                                  const AttentionCache& cache, const std::set<int>& ablated_heads, const Tensor& dout,
                                  Tensor* dxkv, Gradients& grads, OverlapScales overlap = {});

}  // namespace attnlab
