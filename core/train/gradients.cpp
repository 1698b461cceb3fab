// Zeroed gradient buffers and their global norm.
#include "train/gradients.h"

#include <cmath>

namespace attnlab {

Gradients zero_gradients(const Weights& weights) {
    Gradients grads;
    for (const auto& [name, tensor] : weights.all()) grads.emplace(name, Tensor(tensor->shape));
    return grads;
}

double global_norm(const Gradients& grads) {
    double sum = 0.0;
    for (const auto& [name, g] : grads)
        for (float x : g.data) sum += static_cast<double>(x) * x;
    return std::sqrt(sum);
}

}  // namespace attnlab
