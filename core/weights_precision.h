// How a model's weights are stored: the tensors kept as BF16 (from a BF16 checkpoint: Tensor::bf16) and the F32
// ones, with their bytes, for the Model panel and `attnlab-cli info`.
#pragma once

#include "weights.h"

#include <cstdint>

namespace attnlab {

struct WeightsPrecision {
    int64_t bf16_tensors = 0, bf16_bytes = 0;
    int64_t f32_tensors = 0, f32_bytes = 0;
    // Tensors BF16 in `loaded` that are F32 here: edited or trained (copy-on-write widens them); 0 without `loaded`.
    int64_t widened_since_loaded = 0;
};

WeightsPrecision weights_precision(const Weights& weights, const Weights* loaded = nullptr);

}  // namespace attnlab
