#include "train/optimizer.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace attnlab {

std::optional<OptimizerKind> parse_optimizer(const std::string& name) {
    if (name == "adam") return OptimizerKind::adam;
    if (name == "sgd") return OptimizerKind::sgd;
    return std::nullopt;
}

std::optional<LrSchedule> parse_schedule(const std::string& name) {
    if (name == "warmup") return LrSchedule::warmup;
    if (name == "constant") return LrSchedule::constant;
    return std::nullopt;
}

Status check_optimizer(const OptimizerSettings& s) {
    if (s.adam.warmup_steps < 1) return Error{"warm-up steps must be at least 1"};
    if (s.lr && !(*s.lr > 0.0f && std::isfinite(*s.lr))) return Error{"the learning rate must be a positive number"};
    if (s.schedule == LrSchedule::constant && !s.lr) return Error{"a constant schedule needs a learning rate (--lr)"};
    if (!(s.adam.clip_norm >= 0.0f)) return Error{"the clipping norm must be 0 (off) or positive"};
    return ok_status();
}

float learning_rate(const OptimizerSettings& s, int d_model, int step) {
    assert(step >= 1);
    if (s.schedule == LrSchedule::constant) return *s.lr;
    if (!s.lr) return warmup_learning_rate(d_model, step, s.adam.warmup_steps, s.adam.lr_scale);
    const double w = s.adam.warmup_steps, t = step;
    return static_cast<float>(*s.lr * std::min(t / w, std::sqrt(w / t)));
}

double Optimizer::step(Weights& weights, const Gradients& grads, float lr) {
    if (settings_.kind == OptimizerKind::adam) return adam_.step(weights, grads, lr);
    const double norm = global_norm(grads);
    const float clip_norm = settings_.adam.clip_norm;
    const float clip = clip_norm > 0.0f && norm > clip_norm ? static_cast<float>(clip_norm / (norm + 1e-6)) : 1.0f;
    for (const auto& [name, g] : grads) {
        const Tensor* current = weights.find(name);
        assert(current && current->shape == g.shape);
        Tensor updated = widened(*current);  // a BF16 weight trains as F32 from its first update
        for (size_t i = 0; i < g.data.size(); ++i) updated.data[i] -= lr * (g.data[i] * clip);
        weights.set(name, std::move(updated));
    }
    return norm;
}

}  // namespace attnlab
