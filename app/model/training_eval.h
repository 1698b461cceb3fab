// The Training view's held-out evaluation is core's (train/evaluate.h, HeldoutEval), run a
// few examples at a time so that the training worker can stop between chunks. This file only
// gives it the worker's terms: the first n examples, the task's label smoothing, a decoding cap.
#pragma once

#include "model.h"
#include "train/evaluate.h"
#include "train/tasks.h"

#include <cassert>
#include <cstddef>

namespace attnlab::gui {

class ChunkedEval {
public:
    // The first n_examples of the task's held-out split (0: all). max_new_tokens: a cap on each
    // decoded sequence (0: max_len − 1, as evaluate_heldout). Scores only, no hypotheses: the
    // worker keeps one EvalScores per evaluation.
    ChunkedEval(const Task& task, size_t n_examples, float label_smoothing, int max_new_tokens)
        : eval_(task, {.max_examples = n_examples, .label_smoothing = label_smoothing,
                       .max_new_tokens = max_new_tokens, .keep_hypotheses = false}) {}
    bool done() const { return eval_.done(); }
    // Decodes and scores the next `chunk` examples with `model`, which was made for the task.
    void run_chunk(const Model& model, size_t chunk) {
        [[maybe_unused]] const Status st = eval_.run_chunk(model, chunk);
        assert(st && "the trainer's model is made for its task");
    }
    EvalScores scores() const { return eval_.scores(); }  // over the examples run so far

private:
    HeldoutEval eval_;
};

// The live view's cap (core's heldout_decode_cap): twice the longest reference of the first n, plus room for <eos>.
inline int live_decode_cap(const Task& task, size_t n_examples) { return heldout_decode_cap(task, n_examples); }

}  // namespace attnlab::gui
