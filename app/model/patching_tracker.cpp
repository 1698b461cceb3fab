// PatchingTracker (patching_tracker.h): a request when the key changes, the newest result kept.
#include "patching_tracker.h"

namespace attnlab::gui {

bool PatchingTracker::Key::same(const Key& o) const {
    return logits_version == o.logits_version && corrupt_ids.src_ids == o.corrupt_ids.src_ids &&
           corrupt_ids.tgt_ids == o.corrupt_ids.tgt_ids && kind == o.kind && token == o.token && other == o.other &&
           position == o.position && piece == o.piece;
}

bool PatchingTracker::update(const Stepper& clean, const ForwardInputs& corrupt, const AttributionMetric& metric,
                             PatchPiece piece) {
    const TraceEntry* logits =
        clean.config().output_head == OutputHead::none ? nullptr
                                                       : clean.entry(StepId::head(StepKind::logits, clean.config()));
    bool asked = false;
    if (logits) {
        Key key{logits->version, {}, metric.kind, metric.token, metric.other, metric.position, piece};
        key.corrupt_ids.src_ids = corrupt.src_ids;
        key.corrupt_ids.tgt_ids = corrupt.tgt_ids;
        if (!asked_ || !asked_->same(key)) {
            asked_ = std::move(key);
            cancelled_ = false;
            run_.request({clean.config(), clean.weights(), clean.inputs(), corrupt, metric, piece});
            asked = true;
        }
    }
    run_.pump();  // between frames (the web page): the grid runs here, whole
    if (auto r = run_.take()) result_ = std::move(*r);
    return asked;
}

void PatchingTracker::cancel() {
    run_.cancel();
    cancelled_ = true;
}

}  // namespace attnlab::gui
