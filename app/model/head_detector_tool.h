// The Analysis view's head detectors, without ImGui: every self-attention head's induction, previous-token and
// duplicate-token score (core/analysis/head_detectors.h) on L random tokens repeated twice, kept between frames and
// recomputed only when the live model (its config, or a weight tensor: an edit, a training snapshot, another model)
// or the choice changes; and the heads ranked by one score.
#pragma once

#include "analysis/head_detectors.h"
#include "view_state.h"

#include <memory>
#include <string>
#include <vector>

namespace attnlab::gui {

constexpr int kMaxDetectorLength = 64;  // L's ceiling in the view: 2L + 1 tokens stay readable in the Attention view

// The options `choice` means for a model with `config`: L clamped into [2, min(kMaxDetectorLength, the longest two
// copies (and the BOS) max_len allows)]; the BOS −1 resolved to the model's sos id when it is a token of the
// sequence's vocabulary and not its padding (Marian's decoder starts from <pad>; BERT has none), −2 to none.
HeadDetectorOptions detector_options(const ModelConfig& config, const HeadDetectorChoice& choice);

float score_of(const HeadScores& scores, DetectorScore which);

// One head of the scores: its attention's index in HeadDetectorScores::layers, and the head.
struct RankedHead {
    size_t row = 0;
    int head = 0;
};

class HeadDetectorTool {
public:
    // Re-runs detect_heads when `config`, a tensor of `weights` (by identity: tensors are immutable and an edit
    // replaces one) or the choice's sequence (L, seed, BOS; not its sort) differs from the last run's, and returns
    // true then; otherwise it compares pointers.
    // A model the detector refuses (max_len too short, no token to draw): error() says why.
    bool update(const ModelConfig& config, const Weights& weights, const HeadDetectorChoice& choice);

    const std::string& error() const { return error_; }
    bool ready() const { return error_.empty() && runs_ > 0; }
    const HeadDetectorScores& scores() const { return scores_; }     // ready()
    const HeadDetectorOptions& options() const { return options_; }  // as run: L and the BOS resolved
    // Bumps with each run of detect_heads: the weights' (or the choice's) version the scores belong to.
    uint64_t runs() const { return runs_; }
    // Every head, by `by` descending; equal scores in step and head order.
    std::vector<RankedHead> ranked(DetectorScore by) const;
    const HeadScores& at(const RankedHead& h) const { return scores_.layers[h.row].heads[static_cast<size_t>(h.head)]; }

private:
    ModelConfig config_;
    // The tensors run, unowned: one freed since (a weak pointer expired) counts as changed, so a new tensor at a
    // freed one's address is never taken for it.
    std::vector<std::weak_ptr<const Tensor>> tensors_;
    HeadDetectorChoice choice_;
    HeadDetectorOptions options_;
    HeadDetectorScores scores_;
    std::string error_;
    uint64_t runs_ = 0;
};

}  // namespace attnlab::gui
