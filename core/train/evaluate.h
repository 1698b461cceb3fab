// Scoring a model on a task's held-out split: decoded output against the references, plus the
// teacher-forced loss. Used by the trainer at intervals, `attnlab-cli eval` and, a chunk at a
// time (HeldoutEval), by the app's training worker.
#pragma once

#include "model.h"
#include "result.h"
#include "train/tasks.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

struct EvalScores {
    int n_examples = 0;
    double exact_match = 0, token_accuracy = 0, bleu = 0;  // 0..1, 0..1, 0..100
    double loss = 0;                                       // teacher-forced cross-entropy, smoothed by ε
    std::vector<std::vector<std::string>> hypotheses;      // what was decoded, in held-out order
};

struct EvalOptions {
    size_t max_examples = 0;       // 0: the whole held-out split
    int beam_size = 1;             // 1: greedy; more: beam search with α = 0.6
    float label_smoothing = 0.1f;  // ε of the reported loss
    int max_new_tokens = 0;        // a cap on each decoded sequence; 0: max_len − 1. An untrained
                                   // model never says <eos>, and decoding to max_len costs seconds
    bool keep_hypotheses = true;   // false: EvalScores::hypotheses stays empty (scores only)
};

// The held-out evaluation a few examples at a time, so that a worker can stop between chunks.
// The loss is summed over tokens, so the scores after the last chunk are those of one call over
// all the examples, however they were chunked.
class HeldoutEval {
public:
    HeldoutEval(const Task& task, const EvalOptions& options);  // keeps `task`: it must outlive this
    size_t size() const { return n_; }                          // the examples to evaluate
    bool done() const { return next_ == n_; }
    // Decodes and scores the next `chunk` examples (at least one) with `model`. Errors, leaving
    // the evaluation where it was: those of evaluate_heldout.
    Status run_chunk(const Model& model, size_t chunk);
    EvalScores scores() const;  // over the examples run so far

private:
    const Task& task_;
    EvalOptions options_;
    size_t n_ = 0, next_ = 0;
    std::vector<std::vector<std::string>> hypotheses_, references_;
    double loss_sum_ = 0.0;  // Σ over chunks of loss · counted tokens
    int64_t loss_tokens_ = 0;
};

// All of HeldoutEval's examples in one chunk. Errors: a model that is not encoder_decoder, whose
// vocabularies are not the task's, or whose max_len is too short for a held-out example.
Result<EvalScores> evaluate_heldout(const Model& model, const Task& task, const EvalOptions& options);

// A decoding cap for a model still learning (EvalOptions::max_new_tokens): twice the longest
// reference of the first n_examples (0: all), plus room for <eos>.
int heldout_decode_cap(const Task& task, size_t n_examples);

}  // namespace attnlab
