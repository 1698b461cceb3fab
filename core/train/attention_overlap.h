// The disagreement penalties of training (TrainOptions::head_disagreement λ and query_disagreement μ): how much
// attention rows look at the same keys, as dot products of rows (Σ over keys of p·p'; 1 for two rows on the same
// single key, 0 for rows on different keys), a loss term on one attention's weights, with its gradient.
//   across_heads   = Σ_b Σ_i Σ_{h<h'} p_h[b,i]·p_h'[b,i]    heads that copy each other, over `rows` rows
//   across_queries = Σ_b Σ_h Σ_{i<i'} p_h[b,i]·p_h[b,i']   a head whose queries all look at the same keys
//                                                           (a "sink" on <eos>), over `row_pairs` pairs of rows
// Sums run over sequences b, heads h and query rows i that see a key, ablated heads left out.
#pragma once

#include "tensor.h"

#include <cstdint>
#include <set>

namespace attnlab {

struct AttentionOverlap {
    double across_heads = 0.0, across_queries = 0.0;
    int64_t rows = 0, row_pairs = 0;
};
// weights (B·H, Tq, Tk), sequence-major (ops/attention.h).
AttentionOverlap attention_overlap(const Tensor& weights, int64_t batch, const std::set<int>& ablated_heads);

struct OverlapPenalty {
    double value = 0.0;  // λ · across_heads / rows + μ · across_queries / row_pairs
    Tensor d_weights;    // d(value)/d(weights), (B·H, Tq, Tk); zero for ablated heads
};
OverlapPenalty overlap_penalty(const Tensor& weights, int64_t batch, const std::set<int>& ablated_heads,
                               float head_weight, float query_weight);

}  // namespace attnlab
