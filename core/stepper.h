// Stepper: runs the forward pass one named step at a time and keeps every step's output
// (the trace). An edit re-runs only the steps it affects, and only those already reached; an edit
// of the ids re-runs only the rows that can change (step_rows.h): in a causal stack, rows ≥ i of
// every step after token i changed, one new row per step after a token is appended.
// On-demand outputs (Retention::on_demand, step.h: QKᵀ, ÷√D, masked, concat, FFN activation) are
// dropped once the steps that read them have run; entry() and output() recompute them from
// their inputs, bit for bit what the run computed, and hold the last kOnDemandHeld of them. Past a size
// (trace_keep.h) every stage but the checkpoints is on demand: a view's stage is then recomputed from the layer's
// input, the stages between dropped again as soon as it is made.
#pragma once

#include "forward/step.h"
#include "result.h"
#include "row_magnitudes.h"
#include "trace_keep.h"

#include <deque>
#include <optional>
#include <unordered_map>

namespace attnlab {

struct TraceEntry {
    Tensor value;
    std::vector<int64_t> fully_masked_rows;  // attention weights: query rows whose keys are all masked
    uint64_t version = 0;                    // changes whenever a run computes value anew; 0 = not computed
    // How many entries of value are NaN or ±∞, counted whenever value is computed. In a
    // `*.masked` step the −∞ the mask writes is by design and not counted: there a −∞ counts
    // only in a cell its mask allows (mask cell ≠ 0); NaN and +∞ always count.
    int64_t non_finite = 0;
};

class Stepper {
public:
    // On-demand outputs recomputed for entry()/output() that stay held. A pointer those return stays valid until
    // the stepper changes (a step, a run, an edit) or this many more on-demand outputs have been asked for.
    static constexpr size_t kOnDemandHeld = 4;

    // Checks the config, the weights against it, and the inputs (ids in the vocabulary, lengths ≤ max_len).
    // Versions start at `first_version`: a stepper that replaces another continues its sequence
    // (next_version()), so a version number never names two different outputs.
    static Result<Stepper> create(const ModelConfig& config, Weights weights, ForwardInputs inputs,
                                  uint64_t first_version = 1);
    uint64_t next_version() const { return next_version_; }

    // ---- the steps and the cursor: steps [0, cursor) have run ----
    size_t size() const { return steps_.size(); }
    const Step& step(size_t i) const { return steps_.at(i); }
    const std::vector<Step>& steps() const { return steps_; }
    std::optional<size_t> find(const std::string& path) const;  // by the user-visible name
    std::optional<size_t> find(const StepId& id) const;         // by what the step is
    // Step i's inputs (Step::inputs) as step indices, resolved once when the steps are made.
    const std::vector<size_t>& input_indices(size_t i) const { return input_index_.at(i); }
    size_t cursor() const { return cursor_; }
    bool step_forward();         // runs step[cursor]; false at the end
    bool step_back();            // un-runs the last step; false at the start
    void run_to(size_t cursor);  // forward or back until cursor() == cursor
    void run_all() { run_to(size()); }

    // ---- the trace: outputs of steps that have run ----
    const TraceEntry* entry(const std::string& path) const;  // nullptr if unknown or not yet run
    const Tensor* output(const std::string& path) const;
    const TraceEntry* entry(const StepId& id) const;
    const Tensor* output(const StepId& id) const;
    // The same entry without recomputing anything: what the run counted (version, non_finite,
    // fully_masked_rows) and the value's shape are always there; the value holds no numbers
    // (value.empty()) for an on-demand output not held now.
    // nullptr if the step has not run. For questions that need no numbers (has it run? any NaN?).
    const TraceEntry* run_facts(const std::string& path) const;
    const TraceEntry* run_facts(const StepId& id) const;
    // Rows [from, to) along row_axis (step_rows.h) of a step's output, (to − from, ·) or (H, to − from, ·): a kept
    // or held output's rows copied; a dropped one that computes by rows, from inputs it reads by rows that are there
    // now or whose rows can be made the same way, those rows alone, nothing held after (the same bits as the whole:
    // one row of a checkpoint trace's (N, V) probabilities, not all of them, and of Gemma 2's soft-capped logits);
    // else the whole recomputed and held, as output() does. nullopt if the step has not run or the rows are out of
    // range.
    std::optional<Tensor> output_rows(const StepId& id, int64_t from, int64_t to) const;
    // Drops the on-demand outputs entry()/output() recomputed and hold, now: for a view that reads many large ones once
    // each (the attention grid of a checkpoint trace draws a layer's heads, then the next layer's), so that one, not
    // kOnDemandHeld, is held at a time. Pointers to them are then invalid.
    void release_views() const;
    // Floats the trace holds now: every kept output, and the on-demand ones currently held.
    int64_t held_floats() const;
    // What the trace keeps (trace_keep.h): the choice (automatic at first) and the policy in force, which an
    // automatic choice sets again whenever the ids change. Keeping less drops outputs; keeping more recomputes them.
    void set_trace_keep(TraceKeep choice);
    TraceKeep trace_keep_choice() const { return keep_choice_; }
    TraceKeep trace_keep() const { return keep_; }
    // How many steps the last call computed (an edit's incremental re-run, a step, run_to).
    size_t last_computed() const { return last_computed_; }
    // The first row (step_rows.h: row_axis) of step i's output that the last call computed: 0 when it computed
    // the whole output, nullopt when it computed none of it. An output that only lost rows or gained masked
    // columns says its new row count.
    std::optional<int64_t> last_computed_from(size_t i) const;
    // How many leading rows (row_axis) of step `id`'s output hold what they held at `version`, columns past the
    // width they had then aside: every row (kRowsUnchanged) while the output is at that version; when the last
    // call made the output anew from that version, the rows before the first it computed; else 0. For a view that
    // keeps something per row (the Output view's bars) and would otherwise compare every row.
    int64_t rows_kept_since(const StepId& id, uint64_t version) const;
    // The first step, in step order among those run (below the cursor), whose output holds a
    // NaN or ±∞ (TraceEntry::non_finite > 0), or nullopt. Steps run in dependency order, so
    // this is where non-finite values first appear; the steps downstream that they reach are
    // non-finite too. It follows every edit and re-run: an edit that makes the values finite
    // again clears it, and stepping back past the step drops it.
    std::optional<size_t> first_non_finite_step() const;

    // ---- edits: each re-runs, below the cursor, exactly the steps it affects (the ids: exactly the rows) ----
    Status set_src_ids(std::vector<int> ids);
    Status set_tgt_ids(std::vector<int> ids);
    Status set_mask_cell(AttentionUse use, int row, int col, bool allowed);  // a cell of that use's mask
    void clear_mask_overrides(AttentionUse use);
    Status set_head_ablated(const AttentionSite& site, int head, bool ablated);
    // A mixture of experts' expert switched off (its routing weight 0 wherever the router chose it), or back on.
    Status set_expert_ablated(const FfnSite& ffn, int expert, bool ablated);
    Status set_weight_value(const std::string& name, int64_t flat_index, float value);
    // A new config (switches) and/or new weights (a snapshot). Steps whose formula, inputs and
    // parameter tensors are unchanged keep their outputs.
    Status set_model(const ModelConfig& config, Weights weights);

    // ---- a patch (activation patching, analysis/activation_patching.h): part of one step's output overwritten ----
    // The step's rows [row, row + n) along row_axis (step_rows.h) become `values`: (n, ·) for an (N, ·) output, or
    // head `head`'s rows of an (H, N, D) output. Below the cursor, the steps reading it are re-run: by rows (only
    // the rows the patch can change, as after an edit of the ids), or whole. The inputs are not edited: the patch
    // stays until undo_patch() or the next call that changes the stepper, which undoes it first. The step must be
    // kept (Retention::kept), below the cursor, and not a mask.
    enum class PatchRerun { rows, whole };
    struct OutputPatch {
        size_t step = 0;
        int64_t row = 0;
        int head = -1;  // ≥ 0: that head of an (H, N, D) output
        Tensor values;  // (n, ·): n rows of the step's output (of the head's slice)
    };
    Status patch_output(const OutputPatch& patch, PatchRerun rerun = PatchRerun::rows);
    // Puts back every output the patch changed as it was, computing nothing; a no-op without a patch.
    void undo_patch();

    const ModelConfig& config() const { return config_; }
    const Weights& weights() const { return weights_; }
    const ForwardInputs& inputs() const { return inputs_; }

private:
    Stepper(ModelConfig config, Weights weights, ForwardInputs inputs, uint64_t first_version);
    void rebuild_index();
    void compute(size_t i);
    void report_computed(size_t i);  // to this thread's progress listener (progress.h), as part of the call's work
    // Whether step i's new output is finite without counting: its inputs' counts are 0, and the step keeps
    // finite inputs finite (finite_from_finite) or is a QKᵀ that cannot overflow (scores_cannot_overflow).
    // Its TraceEntry::non_finite is then 0.
    bool known_finite(size_t i) const;
    void begin_call();                    // every public call that changes the stepper starts here
    void advance();                       // runs step[cursor]
    void retreat();                       // un-runs step[cursor - 1]
    // Step i's inputs, recomputing dropped on-demand ones; those it recomputed are appended to `recomputed`.
    StepContext context(size_t i, std::vector<size_t>& recomputed) const;
    // Recomputes dropped step i; the inputs it had to recompute for that are dropped again once it is made.
    void recompute_dropped(size_t i) const;
    void recompute_for_view(size_t i) const;  // recompute_dropped, held among the last kOnDemandHeld asked for
    // The policy keep_choice_ calls for with these steps and the current ids.
    TraceKeep resolved_trace_keep(const std::vector<Step>& steps, const ModelConfig& config) const;
    void apply_trace_keep();  // every step's retention under it: outputs no longer kept dropped, kept again recomputed
    bool read_after(size_t j, size_t i) const;  // by a step after i below the cursor
    void drop_finished_inputs(size_t i);        // on-demand inputs of step i that no later step below the cursor reads

    // Recomputes, below the cursor, every step for which seed(i) holds and every step downstream of one.
    template <class Seed>
    void rerun_affected(Seed seed);
    void rerun_control(const Control& control);
    // After an edit of the ids (control src_ids or tgt_ids): re-runs the rows that can differ (stepper_rows.cpp).
    void rerun_rows(const Control& control);
    // What a row re-run starts from: an edited control, or a step whose rows from first_row on were overwritten.
    struct RowSeed {
        const Control* control = nullptr;
        size_t patched = static_cast<size_t>(-1);
        int64_t first_row = 0;
    };
    // The row re-run itself, after begin_call(); false when it stopped because a changed V row is not finite
    // (a NaN reaches every query through a zero weight): the caller re-runs whole.
    bool rerun_rows_from(const RowSeed& seed);
    // A patch's undo log (stepper_patch.cpp): before a patch re-run writes step i's entry, the entry as it was.
    void remember_for_undo(size_t i);
    bool rows_rerun_applies() const;
    void prune_mask_overrides();

    ModelConfig config_;
    Weights weights_;
    ForwardInputs inputs_;
    std::vector<Step> steps_;
    std::vector<std::vector<size_t>> input_index_;    // step i's inputs as step indices
    std::vector<std::vector<size_t>> readers_;        // the steps reading step i, ascending
    mutable std::vector<TraceEntry> trace_;           // aligned with steps_
    mutable std::vector<char> dropped_;               // an on-demand output not held now (its metadata is)
    mutable std::deque<size_t> recently_recomputed_;  // on-demand steps recomputed on request, oldest first
    mutable RowMagnitudes row_magnitudes_;            // of the Q and K the QKᵀ steps read, for known_finite
    TraceKeep keep_choice_ = TraceKeep::automatic;
    TraceKeep keep_ = TraceKeep::standard;  // resolved: never automatic
    std::unordered_map<std::string, size_t> index_;   // path -> step
    std::unordered_map<StepId, size_t, StepIdHash> id_index_;  // id -> step
    size_t cursor_ = 0;
    uint64_t next_version_ = 1;
    size_t last_computed_ = 0;
    // The call's work, as reported: the first step it computed (kNoStep before one), and the end of its steps.
    static constexpr size_t kNoStep = static_cast<size_t>(-1);
    size_t work_first_ = kNoStep, work_end_ = 0;
    std::vector<int64_t> computed_from_;  // aligned with steps_: last_computed_from(), kRowsUnchanged for none
    std::vector<uint64_t> versions_before_call_;  // aligned with steps_: each output's version as the call began
    struct UndoEntry {
        size_t step;
        TraceEntry entry;
        char dropped;
    };
    bool recording_undo_ = false;     // a patch's re-run is writing: remember_for_undo() keeps entries
    std::vector<UndoEntry> undo_;     // the open patch's log, in write order (the first of a step is its original)
};

// NaN and ±∞ entries of step's output `value` computed from `in` (TraceEntry::non_finite): in a masked stage the
// −∞ its mask (in[1]) puts in forbidden cells is not counted.
int64_t count_non_finite(const Step& step, const Tensor& value, const std::vector<const Tensor*>& in);
// The same for a step's whole output: the count it made as it wrote it, if it made one.
int64_t count_non_finite(const Step& step, const StepOutput& out, const std::vector<const Tensor*>& in);

// Checks ids against a vocabulary of n_vocab tokens and the model's max_len. `what` names the sequence.
Status check_ids(const std::vector<int>& ids, int n_vocab, int max_len, const std::string& what);

}  // namespace attnlab
