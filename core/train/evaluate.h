// Scoring a model on a task's held-out split: decoded output against the references, plus the
// teacher-forced loss. Used by the trainer at intervals, `attnlab-cli eval` and the Training view.
#pragma once

#include "model.h"
#include "result.h"
#include "train/tasks.h"

#include <cstddef>
#include <string>
#include <vector>

namespace attnlab {

struct EvalScores {
    int n_examples = 0;
    double exact_match = 0, token_accuracy = 0, bleu = 0;  // 0..1, 0..1, 0..100
    double loss = 0;                                        // teacher-forced cross-entropy, smoothed by ε
    std::vector<std::vector<std::string>> hypotheses;       // what was decoded, in held-out order
};

struct EvalOptions {
    size_t max_examples = 0;      // 0: the whole held-out split
    int beam_size = 1;            // 1: greedy; more: beam search with α = 0.6
    float label_smoothing = 0.1f;  // ε of the reported loss
};

// Errors: a model that is not encoder_decoder, or whose vocabularies are not the task's.
Result<EvalScores> evaluate_heldout(const Model& model, const Task& task, const EvalOptions& options);

}  // namespace attnlab
