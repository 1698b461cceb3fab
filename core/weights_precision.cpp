// Counting the weights' tensors and bytes by storage.
#include "weights_precision.h"

namespace attnlab {

WeightsPrecision weights_precision(const Weights& weights, const Weights* loaded) {
    WeightsPrecision p;
    for (const auto& [name, t] : weights.all()) {
        (t->is_bf16() ? p.bf16_tensors : p.f32_tensors) += 1;
        (t->is_bf16() ? p.bf16_bytes : p.f32_bytes) += t->storage_bytes();
        const Tensor* was = loaded ? loaded->find(name) : nullptr;
        p.widened_since_loaded += was && was->is_bf16() && !t->is_bf16();
    }
    return p;
}

}  // namespace attnlab
