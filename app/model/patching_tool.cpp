// PatchingTool (patching_tool.h): the clean run's pieces, then the corrupted run on the same stepper.
#include "patching_tool.h"

namespace attnlab::gui {

Status check_patchable(const ModelConfig& config, const ForwardInputs& clean, const ForwardInputs& corrupt) {
    const bool src = config.has_encoder();
    const auto& a = src ? clean.src_ids : clean.tgt_ids;
    const auto& b = src ? corrupt.src_ids : corrupt.tgt_ids;
    const char* what = src ? "source" : "prompt";
    if (a.size() != b.size())
        return Error{std::string("the clean and corrupted ") + what + " differ in length: " + std::to_string(a.size()) +
                     " and " + std::to_string(b.size()) + " tokens"};
    if (src && config.has_decoder() && clean.tgt_ids != corrupt.tgt_ids)
        return Error{"the clean and corrupted runs must share one target"};
    return ok_status();
}

Result<PatchingTool> PatchingTool::create(const ModelConfig& config, Weights weights, const ForwardInputs& clean,
                                          const ForwardInputs& corrupt, const AttributionMetric& metric) {
    if (auto st = check_patchable(config, clean, corrupt); !st) return st.error();
    const bool src = config.has_encoder();
    const auto& b = src ? corrupt.src_ids : corrupt.tgt_ids;
    const char* what = src ? "source" : "prompt";
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
    for (PatchPiece piece : kPatchPieces)
        if (auto steps = patch_steps(tool.stepper_, piece)) tool.clean_[piece] = clean_pieces(tool.stepper_, *steps);
    auto st = src ? tool.stepper_.set_src_ids(b) : tool.stepper_.set_tgt_ids(b);
    if (!st) return st.error();
    auto corrupt_value = metric_value(tool.stepper_, metric);
    if (!corrupt_value) return corrupt_value.error();
    tool.corrupt_value_ = *corrupt_value;
    return tool;
}

Result<PatchGrid> PatchingTool::grid(PatchPiece piece, PatchMethod method, const GridProgress& progress,
                                     Stepper::PatchRerun rerun) {
    auto it = clean_.find(piece);
    if (it == clean_.end()) {
        auto steps = patch_steps(stepper_, piece);
        return steps ? Error{"no clean run of " + std::string(to_string(piece))} : steps.error();
    }
    if (method == PatchMethod::gradient) return patch_grid_gradient(stepper_, piece, it->second, metric_, clean_value_);
    return patch_grid(stepper_, piece, it->second, metric_, clean_value_, rerun, progress);
}

}  // namespace attnlab::gui
