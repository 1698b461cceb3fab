// How a training forward pass differs from inference: label smoothing, dropout, ablated heads, and the
// disagreement penalties on attention.
#pragma once

#include "forward/step_id.h"

#include <cstdint>
#include <map>
#include <set>

namespace attnlab {

struct TrainOptions {
    float label_smoothing = 0.1f;  // ε
    float dropout = 0.0f;          // on embeddings + PE and on every sublayer output (paper §5.4)
    uint64_t dropout_seed = 0;     // fixes the dropout masks of one step; vary it per step
    // Disagreement penalties on attention positions, each a mean dot product of two attention rows
    // (1: both on the same single key). λ (Li et al. 2018, "Multi-Head Attention with Disagreement
    // Regularization"): two heads at the same query, so heads learn different patterns. μ: two queries
    // of one head, so a head does not send every query to the same key (a "sink" such as <eos>).
    float head_disagreement = 0.0f;   // λ
    float query_disagreement = 0.0f;  // μ
    // an attention -> heads whose context is forced to zero
    std::map<AttentionSite, std::set<int>> ablated_heads;
};

}  // namespace attnlab
