// The Analysis view's compare tool, without ImGui: run B beside the session's run A on A's input (this model with
// heads switched off, or another model or checkpoint, read off the window's thread), kept between frames and
// brought up to date only when A's trace version or cursor, or what B is, changed; where along the steps the two
// traces part (‖B − A‖ / ‖A‖ per shared step), and any step's B − A as a (rows, cols) block
// (core/analysis/run_b.h, trace_compare.h).
#pragma once

#include "analysis/run_b.h"
#include "analysis/trace_compare.h"
#include "background_model.h"
#include "view_state.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// B − A of one step as the view draws it: a 3-D tensor's slice (its first index), and of a wide tensor (logits over
// a vocabulary) only the columns that changed most.
struct DiffBlock {
    static constexpr int kMaxColumns = 48;
    Result<StepDiff> diff = Error{""};  // the whole step's
    int rows = 0, cols = 0;
    std::vector<float> values;     // (rows, cols) row-major
    std::vector<int64_t> columns;  // (cols,): which of the step's columns, ascending
    float range = 1.0f;            // the largest |B − A| in the block (at least 1e-6): the colour scale's half-width
};

class CompareRun {
public:
    explicit CompareRun(WorkMode mode = WorkMode::own_thread) : reader_(mode) {}

    // Brings B up to date with A and `choice` (other_model, other_path, ablated; not the shown step): B is made anew
    // when A's trace version or B's description changed, only run to A's cursor when A's cursor alone moved, and
    // left alone otherwise. Another model is read off the window's thread: until it is in, state() is opening (and
    // in WorkMode::between_frames this call reads it, a frame after it was asked for). True when B's steps or their
    // differences changed (version() bumped).
    bool update(const Stepper& a, const CompareChoice& choice);

    enum class State { ready, no_path, opening, failed };
    State state() const { return state_; }
    const std::string& error() const { return error_; }  // failed: one line that names B or the file
    const std::string& opening() const { return reader_.path(); }  // opening: the file being read
    const Stepper* b() const { return b_ ? &*b_ : nullptr; }
    uint64_t version() const { return version_; }  // bumps whenever B or what both have computed changes
    // A's edits that B has no place for (analysis/run_b.h).
    int dropped_mask_cells() const { return dropped_mask_cells_; }
    int dropped_heads() const { return dropped_heads_; }

    // The steps both runs have computed, in A's order, and per step ‖B − A‖ / ‖A‖.
    const std::vector<std::string>& shared() const { return shared_; }
    const std::vector<float>& relative() const { return relative_; }
    // Where the traces part: the first shared step whose B − A is not 0 (as attnlab-cli compare finds it, also where
    // A is all zeros and ‖B − A‖ / ‖A‖ says 0); nullopt when they agree everywhere.
    const std::optional<std::string>& first_difference() const { return first_difference_; }
    // `wanted` when both runs have computed it; else the logits, or the last shared step; empty before any.
    std::string step_or_default(const Stepper& a, const std::string& wanted) const;
    // B − A of `step` (slice `slice` of a 3-D one), computed once per step, slice and version().
    const DiffBlock& block(const Stepper& a, const std::string& step, int slice);

private:
    void rebuild(const Stepper& a, const CompareChoice& choice);
    void follow_cursor(const Stepper& a);  // B run to A's cursor; shared_ and relative_ anew
    // The other model at `path`, once read: nullptr while it is read or when it failed (state_ says which).
    const Model* other_model(const std::string& path);

    BackgroundModel reader_;
    std::string other_path_;  // the file other_ (or read_error_) came from
    std::optional<Model> other_;
    std::string read_error_;
    State state_ = State::ready;
    std::string error_;

    bool built_ = false;  // B was made (or failed) for a_version_ and choice_
    uint64_t a_version_ = 0;
    size_t a_cursor_ = 0;
    CompareChoice choice_;
    std::optional<Stepper> b_;
    int dropped_mask_cells_ = 0, dropped_heads_ = 0;
    std::vector<std::string> shared_;
    std::vector<float> relative_;
    std::optional<std::string> first_difference_;
    uint64_t version_ = 0;

    std::string block_step_;
    int block_slice_ = -1;
    uint64_t block_version_ = 0;
    DiffBlock block_;
};

// Every attention of the model, in step order (one per site: its weights step).
std::vector<AttentionSite> attention_sites(const Stepper& s);
// Drops the heads `s` has no attention or head index for (a setting saved with another model): no button could
// switch them back on.
void drop_missing_heads(std::vector<AttentionHead>& heads, const Stepper& s);

}  // namespace attnlab::gui
