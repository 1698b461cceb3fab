// Gradients: dL/dθ for every parameter, keyed by the same names as Weights.
#pragma once

#include "tensor.h"
#include "weights.h"

#include <map>
#include <string>

namespace attnlab {

using Gradients = std::map<std::string, Tensor>;

Gradients zero_gradients(const Weights& weights);  // one zero tensor per parameter, same shapes
double global_norm(const Gradients& grads);        // √(Σ g²) over every parameter

}  // namespace attnlab
