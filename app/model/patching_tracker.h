// PatchingTracker: what the Output view's Patching asks of a PatchingRun, kept between frames. A frame's update()
// asks for the grids only when what they depend on changed since the last request: the clean run's logits (their
// trace version: an edit, a switch, new weights), the corrupted inputs, the metric or the piece; and it takes a
// finished result, which stays until the next one comes. After cancel() the same inputs ask no more until retry().
#pragma once

#include "patching_run.h"

#include <optional>

namespace attnlab::gui {

class PatchingTracker {
public:
    explicit PatchingTracker(WorkMode mode) : run_(mode) {}

    // Once a frame (between frames, the run is pumped here). True when it made a request. No request before the
    // clean run has its logits.
    bool update(const Stepper& clean, const ForwardInputs& corrupt, const AttributionMetric& metric, PatchPiece piece);
    void cancel();
    void retry() { asked_.reset(); }
    bool cancelled() const { return cancelled_; }
    const PatchingRun& run() const { return run_; }
    const std::optional<PatchingResult>& result() const { return result_; }

private:
    // What a request was made for.
    struct Key {
        uint64_t logits_version = 0;
        ForwardInputs corrupt_ids;  // the patched sequence's ids only (src_ids, tgt_ids)
        AttributionMetricKind kind = AttributionMetricKind::logit;
        int token = -1, other = -1;
        int64_t position = -1;
        PatchPiece piece = PatchPiece::residual;
        bool same(const Key& o) const;
    };
    PatchingRun run_;
    std::optional<Key> asked_;
    std::optional<PatchingResult> result_;
    bool cancelled_ = false;
};

}  // namespace attnlab::gui
