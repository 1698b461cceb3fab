// A held-out evaluation done a few examples at a time, so that the training worker can stop
// between chunks: greedy decoding scored by exact match, token accuracy and corpus BLEU over
// every hypothesis, and the teacher-forced loss (averaged over tokens, as evaluate_heldout does).
// With max_new_tokens = 0 the scores are those of evaluate_heldout; the live view caps the
// decoded length instead, because an untrained model never says <eos> and decoding to max_len
// costs seconds.
#pragma once

#include "model.h"
#include "train/evaluate.h"
#include "train/metrics.h"
#include "train/tasks.h"

#include <cstddef>
#include <vector>

namespace attnlab::gui {

class ChunkedEval {
public:
    // The first n_examples of the task's held-out split (0: all). max_new_tokens: a cap on each
    // decoded sequence (0: max_len − 1, as evaluate_heldout).
    ChunkedEval(const Task& task, size_t n_examples, float label_smoothing, int max_new_tokens);
    bool done() const { return next_ == n_; }
    // Decodes and scores the next `chunk` examples with `model` (made for the task).
    void run_chunk(const Model& model, size_t chunk);
    EvalScores scores() const;  // over the examples run so far

private:
    const Task& task_;
    size_t n_ = 0, next_ = 0;
    float label_smoothing_ = 0.1f;
    int max_new_tokens_ = 0;
    std::vector<Sentence> hypotheses_, references_;
    double loss_sum_ = 0.0;  // Σ over chunks of loss · tokens
    int64_t loss_tokens_ = 0;
};

// The live view's cap: twice the longest reference of the first n examples, plus room for <eos>.
int live_decode_cap(const Task& task, size_t n_examples);

}  // namespace attnlab::gui
