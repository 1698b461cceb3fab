// A training run: a task, a model made for its vocabularies, Adam with the warm-up schedule,
// and held-out evaluation. The CLI and the app's worker thread drive it one step at a time;
// it does no I/O and keeps no clock, so the caller decides about progress, checkpoints and stopping.
#pragma once

#include "model.h"
#include "result.h"
#include "train/adam.h"
#include "train/evaluate.h"
#include "train/probes.h"
#include "train/tasks.h"
#include "train/train_options.h"

#include <memory>
#include <random>
#include <string>

namespace attnlab {

struct TrainSettings {
    std::string task = "en-ko";
    std::string preset = "tiny";
    int steps = 3000;   // total optimiser steps
    uint64_t seed = 1;  // the task's split, the initial weights, batches and dropout
    int batch_size = 64;
    int threads = 2;  // the batch is split across this many threads (data parallel)
    float dropout = 0.1f;
    float label_smoothing = 0.1f;
    float head_disagreement = 0.0f;  // λ and μ of the disagreement penalties (TrainOptions), 0: off
    float query_disagreement = 0.0f;
    AdamOptions adam{0.9f, 0.98f, 1e-9f, /*warmup_steps=*/400, /*lr_scale=*/1.0f, /*clip_norm=*/1.0f};
};

struct StepReport {
    int step = 0;               // steps taken so far (this one included)
    double loss = 0.0;          // the batch's smoothed cross-entropy
    double token_accuracy = 0;  // teacher-forced argmax accuracy on the batch
    float learning_rate = 0;
    double grad_norm = 0;                 // the batch gradient's global norm, before clipping
    std::vector<float> group_grad_norms;  // the same gradient's norm in each param_groups() row
};

class Trainer {
public:
    // Errors: unknown task or preset, steps or batch size < 1, dropout outside [0, 1).
    static Result<std::unique_ptr<Trainer>> create(const TrainSettings& settings);

    StepReport train_step();  // one batch: forward, backward, Adam
    // The current model on the held-out split (see evaluate_heldout).
    EvalScores evaluate(const EvalOptions& options) const;
    // The current model's attention entropies (attention_entropies) on probe_example(): the first
    // held-out pair, the same all through the run.
    std::vector<SiteEntropy> attention_entropies() const;
    const TextPair& probe_example() const { return probe_example_; }
    // The rows of StepReport::group_grad_norms.
    const std::vector<ParamGroup>& param_groups() const { return groups_; }

    const Model& model() const { return model_; }  // the current weights; copies share the tensors
    const Task& task() const { return *task_; }
    const TrainSettings& settings() const { return settings_; }
    int steps_done() const { return step_; }
    bool finished() const { return step_ >= settings_.steps; }

private:
    Trainer(TrainSettings settings, std::unique_ptr<Task> task, Model model);

    TrainSettings settings_;
    std::unique_ptr<Task> task_;
    Model model_;
    Adam adam_;
    std::mt19937_64 rng_;
    std::vector<ParamGroup> groups_;
    TextPair probe_example_;
    TokenPair probe_pair_;
    int step_ = 0;
};

}  // namespace attnlab
