// What an induction run (TrainSettings::task == "induction") records at each probe point besides the probe record:
// the loss on the first and on the second copy of a fixed batch (Trainer::copy_losses), and every self-attention
// head's induction, previous-token and duplicate-token score (detect_heads on L random tokens repeated after a
// <bos>). Flat arrays, so that copying the app's progress stays cheap; past kMaxPoints every other point goes (the
// first and the newest stay), so memory is bounded.
#pragma once

#include "analysis/head_detectors.h"
#include "train/induction_task.h"

#include <cstddef>
#include <vector>

namespace attnlab::gui {

enum class HeadScoreKind { induction, previous_token, duplicate_token };
inline constexpr int kHeadScoreKinds = 3;

class InductionRecord {
public:
    static constexpr size_t kMaxPoints = 512;

    InductionRecord() = default;
    InductionRecord(int n_layers, int n_heads) : n_layers_(n_layers), n_heads_(n_heads) {}

    // scores: n_layers self-attentions of n_heads heads each (detect_heads' layers).
    void add(int step, const CopyLosses& losses, const HeadDetectorScores& scores);

    bool empty() const { return steps_.empty(); }
    size_t size() const { return steps_.size(); }
    int n_layers() const { return n_layers_; }
    int n_heads() const { return n_heads_; }
    int step(size_t point) const { return steps_[point]; }
    float first_copy_loss(size_t point) const { return first_[point]; }
    float second_copy_loss(size_t point) const { return second_[point]; }
    float score(size_t point, int layer, int head, HeadScoreKind kind) const {
        return scores_[((point * static_cast<size_t>(n_layers_) + static_cast<size_t>(layer)) *
                            static_cast<size_t>(n_heads_) +
                        static_cast<size_t>(head)) *
                           kHeadScoreKinds +
                       static_cast<size_t>(kind)];
    }

private:
    int n_layers_ = 0, n_heads_ = 0;
    std::vector<int> steps_;
    std::vector<float> first_, second_;  // (points)
    std::vector<float> scores_;          // (points, layers, heads, kinds)
};

// The head whose score of `kind` is highest at `point`: {layer, head}.
struct ScoredHead {
    int layer = 0, head = 0;
};
ScoredHead best_head(const InductionRecord& record, size_t point, HeadScoreKind kind);

}  // namespace attnlab::gui
