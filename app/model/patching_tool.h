// PatchingTool: the state of activation patching (core/analysis/activation_patching.h) for the app and the CLI:
// the clean run's pieces, the corrupted run (one stepper: the clean ids, then the corrupted ones by the row
// re-run), the metric on each, and the grids. Plain and headless: the GUI may call grid() off the window's thread
// with a progress callback (the tool is then not touched elsewhere until it returns).
// Header-only so that attnlab-cli, which links attnlab_core alone, calls the same class.
//
// The sequence that differs: the source of a model with an encoder (an encoder-decoder keeps one target), the
// prompt of a decoder-only model. The grids' rows are the layers of the stack the logits read.
#pragma once

#include "analysis/activation_patching.h"

#include <map>
#include <optional>

namespace attnlab::gui {

enum class PatchMethod { exact, gradient };

class PatchingTool {
public:
    // Runs `clean`, reads the metric and keeps every piece's clean outputs, then turns the stepper into the
    // corrupted run. One-line errors: inputs that differ in anything but the patched sequence's tokens (their
    // lengths, the target), a metric position past the end or a token outside the vocabulary.
    static Result<PatchingTool> create(const ModelConfig& config, Weights weights, const ForwardInputs& clean,
                                       const ForwardInputs& corrupt, const AttributionMetric& metric) {
        const bool src = config.has_encoder();
        const auto& a = src ? clean.src_ids : clean.tgt_ids;
        const auto& b = src ? corrupt.src_ids : corrupt.tgt_ids;
        const char* what = src ? "source" : "prompt";
        if (a.size() != b.size())
            return Error{std::string("the clean and corrupted ") + what + " differ in length: " +
                         std::to_string(a.size()) + " and " + std::to_string(b.size()) + " tokens"};
        if (src && config.has_decoder() && clean.tgt_ids != corrupt.tgt_ids)
            return Error{"the clean and corrupted runs must share one target"};
        auto stepper = Stepper::create(config, std::move(weights), clean);
        if (!stepper) return stepper.error();
        if (auto st = check_ids(b, src ? config.src_vocab_size : config.tgt_vocab_size, config.max_len,
                                std::string("the corrupted ") + what);
            !st)
            return st.error();
        stepper->run_all();
        auto clean_value = metric_value(*stepper, metric);
        if (!clean_value) return clean_value.error();
        PatchingTool tool(std::move(*stepper), metric, *clean_value);
        for (PatchPiece piece : {PatchPiece::residual, PatchPiece::attn_out, PatchPiece::ffn_out, PatchPiece::heads})
            if (auto steps = patch_steps(tool.stepper_, piece)) tool.clean_[piece] = clean_pieces(tool.stepper_, *steps);
        auto st = src ? tool.stepper_.set_src_ids(b) : tool.stepper_.set_tgt_ids(b);
        if (!st) return st.error();
        auto corrupt_value = metric_value(tool.stepper_, metric);
        if (!corrupt_value) return corrupt_value.error();
        tool.corrupt_value_ = *corrupt_value;
        return tool;
    }

    const AttributionMetric& metric() const { return metric_; }
    double clean_metric() const { return clean_value_; }
    double corrupt_metric() const { return corrupt_value_; }
    const Stepper& corrupted() const { return stepper_; }

    // The grid of one piece: exact (a patch per cell, by the row re-run) or the gradient estimate.
    Result<PatchGrid> grid(PatchPiece piece, PatchMethod method, const PatchProgress& progress = {},
                           Stepper::PatchRerun rerun = Stepper::PatchRerun::rows) {
        auto it = clean_.find(piece);
        if (it == clean_.end()) {
            auto steps = patch_steps(stepper_, piece);
            return steps ? Error{"no clean run of " + std::string(to_string(piece))} : steps.error();
        }
        if (method == PatchMethod::gradient)
            return patch_grid_gradient(stepper_, piece, it->second, metric_, clean_value_);
        return patch_grid(stepper_, piece, it->second, metric_, clean_value_, rerun, progress);
    }

private:
    PatchingTool(Stepper stepper, AttributionMetric metric, double clean_value)
        : stepper_(std::move(stepper)), metric_(metric), clean_value_(clean_value) {}

    Stepper stepper_;  // the corrupted run
    AttributionMetric metric_;
    double clean_value_ = 0.0, corrupt_value_ = 0.0;
    std::map<PatchPiece, std::vector<Tensor>> clean_;  // each piece's clean outputs, one per layer
};

}  // namespace attnlab::gui
