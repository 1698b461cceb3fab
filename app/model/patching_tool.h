// PatchingTool: the state of activation patching (core/analysis/activation_patching.h) for the app and the CLI:
// the clean run's pieces, the corrupted run (one stepper: the clean ids, then the corrupted ones by the row
// re-run), the metric on each, and the grids. Plain and headless: the GUI may call grid() off the window's thread
// with a progress callback (the tool is then not touched elsewhere until it returns).
// attnlab-cli calls the same class.
//
// The sequence that differs: the source of a model with an encoder (an encoder-decoder keeps one target), the
// prompt of a decoder-only model. The grids' rows are the layers of the stack the logits read.
#pragma once

#include "analysis/activation_patching.h"

#include <map>
#include <optional>

namespace attnlab::gui {

enum class PatchMethod { exact, gradient };

// Whether `corrupt` differs from `clean` only in the patched sequence's tokens (the source of a model with an
// encoder, else the prompt): a one-line error for lengths that differ or a target that differs. The Input view
// checks a corrupted sentence with it as it is typed; create() checks with it first.
Status check_patchable(const ModelConfig& config, const ForwardInputs& clean, const ForwardInputs& corrupt);

class PatchingTool {
public:
    // Runs `clean`, reads the metric and keeps every piece's clean outputs, then turns the stepper into the
    // corrupted run. One-line errors: inputs that differ in anything but the patched sequence's tokens (their
    // lengths, the target), a metric position past the end or a token outside the vocabulary.
    static Result<PatchingTool> create(const ModelConfig& config, Weights weights, const ForwardInputs& clean,
                                       const ForwardInputs& corrupt, const AttributionMetric& metric);

    const AttributionMetric& metric() const { return metric_; }
    double clean_metric() const { return clean_value_; }
    double corrupt_metric() const { return corrupt_value_; }
    const Stepper& corrupted() const { return stepper_; }

    // The grid of one piece: exact (a patch per cell, by the row re-run) or the gradient estimate.
    Result<PatchGrid> grid(PatchPiece piece, PatchMethod method, const GridProgress& progress = {},
                           Stepper::PatchRerun rerun = Stepper::PatchRerun::rows);

private:
    PatchingTool(Stepper stepper, AttributionMetric metric, double clean_value)
        : stepper_(std::move(stepper)), metric_(metric), clean_value_(clean_value) {}

    Stepper stepper_;  // the corrupted run
    AttributionMetric metric_;
    double clean_value_ = 0.0, corrupt_value_ = 0.0;
    std::map<PatchPiece, std::vector<Tensor>> clean_;  // each piece's clean outputs, one per layer
};

}  // namespace attnlab::gui
