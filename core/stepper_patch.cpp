// A patch of one step's output (Stepper::patch_output): the overwrite, the re-run of what reads it (by rows through
// stepper_rows.cpp, or whole), and the undo log that puts every changed entry back without computing.
#include "stepper.h"

#include "forward/step_path.h"
#include "ops/non_finite.h"
#include "step_rows.h"

#include <algorithm>

namespace attnlab {

void Stepper::remember_for_undo(size_t i) {
    if (recording_undo_) undo_.push_back({i, trace_[i], dropped_[i]});
}

void Stepper::undo_patch() {
    if (undo_.empty()) return;
    release_views();  // recomputed from patched inputs
    for (size_t k = undo_.size(); k-- > 0;) {  // the first entry logged for a step is its original: restored last
        trace_[undo_[k].step] = std::move(undo_[k].entry);
        dropped_[undo_[k].step] = undo_[k].dropped;
    }
    undo_.clear();
}

Status Stepper::patch_output(const OutputPatch& patch, PatchRerun rerun) {
    if (patch.step >= cursor_) return Error{"step " + std::to_string(patch.step) + " has not run: nothing to patch"};
    const Step& step = steps_[patch.step];
    if (step.retention != Retention::kept || is_mask(step.record.id.kind))
        return Error{"'" + step.path + "' cannot be patched: only a kept output that is not a mask"};
    const Tensor& old = trace_[patch.step].value;
    const int axis = row_axis(step.record.id);
    const bool by_head = patch.head >= 0;
    if (by_head != (axis == 1 && old.rank() == 3))
        return Error{by_head ? "'" + step.path + "' has no heads" : "'" + step.path + "' is patched one head at a time"};
    if (by_head && patch.head >= old.dim(0))
        return Error{"head " + std::to_string(patch.head) + " is outside 0.." + std::to_string(old.dim(0) - 1)};
    const int64_t N = old.dim(axis), H = by_head ? old.dim(0) : 1;
    const int64_t width = N > 0 ? old.numel() / (H * N) : 0;  // entries of one row
    const int64_t n = patch.values.rank() >= 1 ? patch.values.dim(0) : 0;
    if (patch.row < 0 || n < 1 || patch.row + n > N || patch.values.numel() != n * width)
        return Error{"a patch of rows " + std::to_string(patch.row) + ".." + std::to_string(patch.row + n - 1) +
                     " with " + shape_string(patch.values.shape) + " does not fit '" + step.path + "' " +
                     shape_string(old.shape)};

    begin_call();  // undoes an open patch
    recording_undo_ = true;
    remember_for_undo(patch.step);
    TraceEntry& e = trace_[patch.step];
    const int64_t at = by_head ? (patch.head * N + patch.row) * width : patch.row * width;
    std::copy(patch.values.data.begin(), patch.values.data.end(), e.value.data.begin() + at);
    e.version = next_version_++;
    e.non_finite = count_non_finite(e.value.data.data(), e.value.data.size());
    ++last_computed_;
    computed_from_[patch.step] = patch.row;

    bool done = rerun == PatchRerun::rows && rows_rerun_applies() &&
                rerun_rows_from({nullptr, patch.step, patch.row});
    if (!done) {  // whole: every step downstream of the patched one, all its rows
        std::vector<char> dirty(cursor_, 0);
        dirty[patch.step] = 1;
        for (size_t i = patch.step + 1; i < cursor_; ++i) {
            for (size_t j : input_index_[i]) dirty[i] = dirty[i] || dirty[j];
            if (dirty[i]) compute(i);
        }
    }
    recording_undo_ = false;
    return ok_status();
}

}  // namespace attnlab
