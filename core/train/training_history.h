// A training run's history, to scrub through afterwards: at chosen steps, the batch loss, the induction task's
// first- and second-copy losses, every self-attention head's detector scores (analysis/head_detectors.h) and a
// snapshot of the weights. train/training_history_file.h saves it as one .safetensors file.
#pragma once

#include "analysis/head_detectors.h"
#include "model.h"
#include "result.h"
#include "train/induction_task.h"
#include "weights.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace attnlab {

class Trainer;

struct HistoryCheckpoint {
    int step = 0;                 // optimiser steps taken when it was recorded
    std::optional<double> loss;   // the last step's batch loss (StepReport::loss); none at step 0
    CopyLosses copies;            // on the trainer's fixed batch of the task
    std::vector<HeadScores> heads;  // (layers · H), layer-major: detect_heads' self-attentions in step order
    Weights weights;              // the snapshot (Weights share tensors: the trainer's later steps replace them)
};

struct TrainingHistory {
    Model model;               // config, vocabularies and training record shared by every checkpoint
    int detect_length = 0;     // the detectors' L (the task's L_max), with <bos> 1 before the copies
    int layers = 0, heads = 0;  // the self-attentions scored, and H
    std::vector<HistoryCheckpoint> checkpoints;  // steps strictly increasing

    // The model with checkpoint i's weights (its training record's steps set to the checkpoint's step).
    Model at(size_t i) const;
};

// An empty history of `model` (its weights are not kept), its heads to be scored on sequences of L tokens.
TrainingHistory start_history(const Model& model, int detect_length);

// Appends a checkpoint of `weights` at `step`, scoring every head (detect_heads, L = detect_length, <bos> 1).
// Errors: a step not after the last one, weights the detectors cannot run (detect_heads' errors).
Status record_checkpoint(TrainingHistory& history, int step, const Weights& weights, std::optional<double> loss,
                         CopyLosses copies);
// The same from an induction-task trainer (Trainer::copy_losses() must not be nullopt: asserted).
Status record_checkpoint(TrainingHistory& history, const Trainer& trainer, std::optional<double> batch_loss);

}  // namespace attnlab
