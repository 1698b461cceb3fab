// How a training forward pass differs from inference: label smoothing, dropout and ablated heads.
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
    // an attention -> heads whose context is forced to zero
    std::map<AttentionSite, std::set<int>> ablated_heads;
};

}  // namespace attnlab
