// How a training forward pass differs from inference: label smoothing, dropout and ablated heads.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace attnlab {

struct TrainOptions {
    float label_smoothing = 0.1f;  // ε
    float dropout = 0.0f;          // on embeddings + PE and on every sublayer output (paper §5.4)
    uint64_t dropout_seed = 0;     // fixes the dropout masks of one step; vary it per step
    // attention path ("decoder.layers.0.cross_attn") -> heads whose context is forced to zero
    std::map<std::string, std::set<int>> ablated_heads;
};

}  // namespace attnlab
