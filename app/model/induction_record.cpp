// Appending a point, thinning the record when it is full, and finding the best head.
#include "induction_record.h"

#include <algorithm>
#include <cassert>

namespace attnlab::gui {

void InductionRecord::add(int step, const CopyLosses& losses, const HeadDetectorScores& scores) {
    assert(scores.layers.size() == static_cast<size_t>(n_layers_));
    steps_.push_back(step);
    first_.push_back(static_cast<float>(losses.first));
    second_.push_back(static_cast<float>(losses.second));
    for (const HeadDetectorScores::Layer& layer : scores.layers) {
        assert(layer.heads.size() == static_cast<size_t>(n_heads_));
        for (const HeadScores& h : layer.heads) scores_.insert(scores_.end(), {h.induction, h.previous_token, h.duplicate_token});
    }
    if (steps_.size() < kMaxPoints) return;
    // Keep the even points (the first among them) and the newest.
    const size_t per_point = static_cast<size_t>(n_layers_) * static_cast<size_t>(n_heads_) * kHeadScoreKinds;
    size_t kept = 0;
    for (size_t i = 0; i < steps_.size(); ++i) {
        if (i % 2 != 0 && i + 1 != steps_.size()) continue;
        steps_[kept] = steps_[i];
        first_[kept] = first_[i];
        second_[kept] = second_[i];
        std::copy_n(scores_.begin() + static_cast<std::ptrdiff_t>(i * per_point), per_point,
                    scores_.begin() + static_cast<std::ptrdiff_t>(kept * per_point));
        ++kept;
    }
    steps_.resize(kept);
    first_.resize(kept);
    second_.resize(kept);
    scores_.resize(kept * per_point);
}

ScoredHead best_head(const InductionRecord& record, size_t point, HeadScoreKind kind) {
    ScoredHead best;
    float top = -1.0f;
    for (int l = 0; l < record.n_layers(); ++l)
        for (int h = 0; h < record.n_heads(); ++h)
            if (const float s = record.score(point, l, h, kind); s > top) {
                top = s;
                best = {l, h};
            }
    return best;
}

}  // namespace attnlab::gui
