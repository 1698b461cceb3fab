// The paper's optimiser (§5.3): Adam with β1 = 0.9, β2 = 0.98, ε = 1e-9 and the warm-up schedule
//   lr = scale · C^-0.5 · min(step^-0.5, step · warmup^-1.5)
// plus optional clipping of the gradients' global norm.
#pragma once

#include "train/gradients.h"
#include "weights.h"

namespace attnlab {

struct AdamOptions {
    float beta1 = 0.9f, beta2 = 0.98f, eps = 1e-9f;
    int warmup_steps = 4000;
    float lr_scale = 1.0f;   // multiplies the schedule
    float clip_norm = 0.0f;  // 0 = no clipping
};

// step counts from 1.
float warmup_learning_rate(int d_model, int step, int warmup_steps, float lr_scale);

class Adam {
public:
    explicit Adam(AdamOptions options) : options_(options) {}

    // Updates every parameter that has a gradient; returns the gradients' global norm (before clipping).
    // Each updated tensor is replaced by a new one, so earlier Weights snapshots stay unchanged.
    double step(Weights& weights, const Gradients& grads, float learning_rate);

    int steps_taken() const { return t_; }

private:
    AdamOptions options_;
    int t_ = 0;
    Gradients m_, v_;  // first and second moments
};

}  // namespace attnlab
