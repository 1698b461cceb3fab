// Adam as torch.optim.Adam computes it (bias-corrected moments, ε added to √v̂), with the paper's schedule.
#include "train/adam.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace attnlab {

float warmup_learning_rate(int d_model, int step, int warmup_steps, float lr_scale) {
    assert(step >= 1 && warmup_steps >= 1);
    const double s = step, w = warmup_steps;
    return static_cast<float>(lr_scale / std::sqrt(static_cast<double>(d_model)) *
                              std::min(1.0 / std::sqrt(s), s * std::pow(w, -1.5)));
}

double Adam::step(Weights& weights, const Gradients& grads, float learning_rate) {
    const double norm = global_norm(grads);
    const float clip = options_.clip_norm > 0.0f && norm > options_.clip_norm
                           ? static_cast<float>(options_.clip_norm / (norm + 1e-6))
                           : 1.0f;
    ++t_;
    const float b1 = options_.beta1, b2 = options_.beta2;
    const float correction1 = 1.0f - static_cast<float>(std::pow(b1, t_));
    const float correction2 = 1.0f - static_cast<float>(std::pow(b2, t_));
    const float step_size = learning_rate / correction1;
    const float sqrt_correction2 = std::sqrt(correction2);
    for (const auto& [name, g] : grads) {
        const Tensor* current = weights.find(name);
        assert(current && current->shape == g.shape);
        float* m = m_.try_emplace(name, Tensor(g.shape)).first->second.data.data();  // zero at first use
        float* v = v_.try_emplace(name, Tensor(g.shape)).first->second.data.data();
        Tensor updated = widened(*current);  // a BF16 weight trains as F32 from its first update
        const size_t n = g.data.size();
        for (size_t i = 0; i < n; ++i) {
            const float gi = g.data[i] * clip;
            m[i] = b1 * m[i] + (1.0f - b1) * gi;
            v[i] = b2 * v[i] + (1.0f - b2) * gi * gi;
            updated.data[i] -= step_size * m[i] / (std::sqrt(v[i]) / sqrt_correction2 + options_.eps);
        }
        weights.set(name, std::move(updated));
    }
    return norm;
}

}  // namespace attnlab
