#include "forward/norm_map.h"

#include "ops/layer_norm.h"
#include "ops/rms_norm.h"

namespace attnlab {

Tensor norm_forward(const ModelConfig& config, const Weights& weights, const NormParams& norm, const Tensor& x) {
    if (config.norm == NormKind::rms_norm) return rms_norm_forward(x, weights.at(norm.weight), config.layer_norm_eps);
    return layer_norm_forward(x, weights.at(norm.weight), weights.at(norm.bias), config.layer_norm_eps);
}

}  // namespace attnlab
