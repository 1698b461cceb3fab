// The optimiser of a training run: Adam (train/adam.h) or plain SGD, w ← w − lr·g, with no momentum; the learning
// rate's schedule; and clipping of the gradients' global norm, before either.
//   warmup    lr(step) = peak · min(step / W, √(W / step))   (the paper's §5.3 shape: up for W steps, then ∝ 1/√step)
//   constant  lr(step) = lr
// The paper's own peak is C^-0.5 · W^-0.5, times lr_scale.
#pragma once

#include "result.h"
#include "train/adam.h"

#include <optional>
#include <string>

namespace attnlab {

enum class OptimizerKind { adam, sgd };
enum class LrSchedule { warmup, constant };

struct OptimizerSettings {
    OptimizerKind kind = OptimizerKind::adam;
    LrSchedule schedule = LrSchedule::warmup;
    std::optional<float> lr;  // constant: the rate; warmup: the peak. None: the paper's peak (warmup only)
    AdamOptions adam{0.9f, 0.98f, 1e-9f, /*warmup_steps=*/400, /*lr_scale=*/1.0f, /*clip_norm=*/1.0f};
};

// "adam" / "sgd", "warmup" / "constant"; nullopt for anything else.
std::optional<OptimizerKind> parse_optimizer(const std::string& name);
std::optional<LrSchedule> parse_schedule(const std::string& name);

// The one-line reason settings cannot run (warm-up below 1 step, a rate that is not positive, a constant schedule
// without a rate), or ok.
Status check_optimizer(const OptimizerSettings& settings);

// The rate of step ≥ 1 for a model of width d_model.
float learning_rate(const OptimizerSettings& settings, int d_model, int step);

class Optimizer {
public:
    explicit Optimizer(OptimizerSettings settings) : settings_(settings), adam_(settings.adam) {}

    // Updates every parameter that has a gradient (each updated tensor replaced by a new one, so earlier Weights
    // snapshots stay as they were); returns the gradients' global norm before clipping.
    double step(Weights& weights, const Gradients& grads, float learning_rate);

    const OptimizerSettings& settings() const { return settings_; }

private:
    OptimizerSettings settings_;
    Adam adam_;
};

}  // namespace attnlab
