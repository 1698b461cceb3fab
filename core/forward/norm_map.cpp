#include "forward/norm_map.h"

#include "ops/layer_norm.h"
#include "ops/rms_norm.h"

namespace attnlab {

Tensor norm_forward(const ModelConfig& config, const Weights& weights, const NormParams& norm, const Tensor& x) {
    if (config.norm == NormKind::rms_norm) return rms_norm_forward(x, weights.at(norm.weight), config.layer_norm_eps);
    return layer_norm_forward(x, weights.at(norm.weight), weights.at(norm.bias), config.layer_norm_eps);
}

Tensor norm_backward(const ModelConfig& config, const Weights& weights, const NormParams& norm, const Tensor& x,
                     const Tensor& dy, ParamGrads& grads) {
    const Tensor& gain = weights.at(norm.weight);
    Tensor& d_gain = grads.of(norm.weight, gain.shape);
    if (config.norm == NormKind::rms_norm) return rms_norm_backward(x, gain, config.layer_norm_eps, dy, d_gain);
    Tensor& d_bias = grads.of(norm.bias, weights.at(norm.bias).shape);
    return layer_norm_backward(x, gain, config.layer_norm_eps, dy, &d_gain, &d_bias);
}

}  // namespace attnlab
