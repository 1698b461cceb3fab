// A training run: a model, what it trains on, the optimiser (train/optimizer.h), and, for a task of pairs, held-out
// evaluation. Either a task makes the model (copy, reverse, sort, en-ko: a preset encoder-decoder for its
// vocabularies; induction: a decoder-only model), or the caller brings an opened model of any family with batches
// of its kind (a file's windows, masked windows, or pairs). The CLI and the app's worker thread drive it one step at
// a time; it does no I/O and keeps no clock, so the caller decides about progress, checkpoints and stopping.
#pragma once

#include "model.h"
#include "result.h"
#include "train/evaluate.h"
#include "train/induction_task.h"
#include "train/optimizer.h"
#include "train/probes.h"
#include "train/tasks.h"
#include "train/train_options.h"

#include <memory>
#include <random>
#include <string>

namespace attnlab {

struct TrainSettings {
    std::string task = "en-ko";  // a task_names() task, or "induction"; unused with batches of the caller's
    std::string preset = "tiny";
    int steps = 3000;   // total optimiser steps
    uint64_t seed = 1;  // the task's split, the initial weights, batches and dropout
    int batch_size = 64;
    int threads = 2;  // the batch is split across this many threads (data parallel)
    float dropout = 0.1f;
    float label_smoothing = 0.1f;
    float head_disagreement = 0.0f;  // λ and μ of the disagreement penalties (TrainOptions), 0: off
    float query_disagreement = 0.0f;
    OptimizerSettings optimizer;
    int induction_length = 12;  // the induction task's L, and its ordinary tokens
    int induction_tokens = 40;
};

struct StepReport {
    int step = 0;               // steps taken so far (this one included)
    double loss = 0.0;          // the batch's smoothed cross-entropy, before this step's update
    double token_accuracy = 0;  // teacher-forced argmax accuracy on the batch
    float learning_rate = 0;
    double grad_norm = 0;                 // the batch gradient's global norm, before clipping
    std::vector<float> group_grad_norms;  // the same gradient's norm in each param_groups() row
};

class Trainer {
public:
    // Errors: unknown task or preset, steps or batch size < 1, dropout outside [0, 1), optimiser settings
    // (check_optimizer).
    static Result<std::unique_ptr<Trainer>> create(const TrainSettings& settings);
    // Trains `model` (any family with an output head) on `batches` of the kind its arch trains on
    // (SequenceBatches::trains()): next-token sequences for a decoder-only model, masked tokens (MaskedBatches) for
    // an encoder-only one, pairs (PairBatches) for an encoder-decoder; settings.task is ignored. Errors: other
    // batches (one line naming the kind to give), a first batch that does not fit the model (check_batch).
    static Result<std::unique_ptr<Trainer>> create_on(Model model, std::unique_ptr<SequenceBatches> batches,
                                                      const TrainSettings& settings);

    StepReport train_step();  // one batch: forward, backward, the optimiser's step
    // The current model on the held-out split (see evaluate_heldout). Only with has_heldout().
    EvalScores evaluate(const EvalOptions& options) const;
    bool has_heldout() const { return task_ != nullptr; }
    // The current model's attention entropies (attention_entropies) on the probe: the first held-out pair, or
    // the first sequence of the first batch, the same all through the run.
    std::vector<SiteEntropy> attention_entropies() const;
    const TextPair& probe_example() const { return probe_example_; }  // a task's probe
    // The induction task's losses on the first and second copy of a fixed batch; nullopt for other data.
    std::optional<CopyLosses> copy_losses() const;
    // The rows of StepReport::group_grad_norms.
    const std::vector<ParamGroup>& param_groups() const { return groups_; }

    const Model& model() const { return model_; }  // the current weights; copies share the tensors
    const Task& task() const { return *task_; }  // only with has_heldout()
    const TrainSettings& settings() const { return settings_; }
    int steps_done() const { return step_; }
    bool finished() const { return step_ >= settings_.steps; }

private:
    Trainer(TrainSettings settings, std::unique_ptr<Task> task, std::unique_ptr<SequenceBatches> batches,
            Model model);
    Batch next_batch();

    TrainSettings settings_;
    std::unique_ptr<Task> task_;               // a task of pairs, or
    std::unique_ptr<SequenceBatches> batches_;  // next-token sequences
    std::optional<InductionTask> induction_;   // when batches_ are the induction task's
    Model model_;
    Optimizer optimizer_;
    std::mt19937_64 rng_;
    std::vector<ParamGroup> groups_;
    TextPair probe_example_;
    ForwardInputs probe_;  // the one sequence (or pair) attention_entropies reads
    Batch copy_probe_;     // induction: the batch copy_losses() reads
    int step_ = 0;
};

}  // namespace attnlab
