// The stepper: cursor movement, the trace, and incremental re-runs after edits.
#include "stepper.h"

#include "forward/step_path.h"
#include "ops/attention.h"
#include "ops/non_finite.h"
#include "progress.h"
#include "step_rows.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

Status check_ids(const std::vector<int>& ids, int n_vocab, int max_len, const std::string& what) {
    if (ids.empty()) return Error{what + " is empty"};
    if (static_cast<int64_t>(ids.size()) > max_len)
        return Error{what + " has " + std::to_string(ids.size()) + " tokens, more than max_len " +
                     std::to_string(max_len)};
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= n_vocab)
            return Error{what + " token " + std::to_string(i) + " has id " + std::to_string(ids[i]) +
                         ", outside the vocabulary 0.." + std::to_string(n_vocab - 1)};
    return ok_status();
}

namespace {

// What the decoder's sequence is called in a refusal: a decoder-only model's one sequence is the prompt.
const char* decoder_sequence_name(const ModelConfig& c) { return c.has_encoder() ? "target" : "the prompt"; }

Status check_inputs(const ModelConfig& c, const ForwardInputs& in) {
    if (in.batch != 1) return Error{"the stepper runs one sequence at a time"};
    if (c.has_encoder()) {
        if (auto st = check_ids(in.src_ids, c.src_vocab_size, c.max_len, "source"); !st) return st;
    }
    if (!in.src_token_types.empty()) {
        if (c.type_vocab_size == 0) return Error{"this model has no token types"};
        if (static_cast<int64_t>(in.src_token_types.size()) > c.max_len) return Error{"more token types than max_len"};
        for (size_t i = 0; i < in.src_token_types.size(); ++i)
            if (in.src_token_types[i] < 0 || in.src_token_types[i] >= c.type_vocab_size)
                return Error{"token type " + std::to_string(in.src_token_types[i]) + " at source position " +
                             std::to_string(i) + " is outside 0.." + std::to_string(c.type_vocab_size - 1)};
    }
    if (c.has_decoder()) {
        if (auto st = check_ids(in.tgt_ids, c.tgt_vocab_size, c.max_len, decoder_sequence_name(c)); !st) return st;
    }
    return ok_status();
}

}  // namespace

// NaN and ±∞ entries of a step's output (see TraceEntry::non_finite). A masked stage's
// output is (H, N, M) and its input 1 the (N, M) mask shared by the heads: a −∞ in a cell the
// mask forbids is the mask's own doing and is not counted.
int64_t count_non_finite(const Step& step, const Tensor& value, const std::vector<const Tensor*>& in) {
    const StepId& id = step.record.id;
    if (id.kind != StepKind::attention || id.stage != AttentionStage::masked || value.data.empty())
        return count_non_finite(value.data.data(), value.data.size());
    assert(in.size() == 2 && in[1]->rank() == 2 && value.rank() == 3 && "a masked stage reads (scaled, mask)");
    const size_t cells = in[1]->data.size();  // the (N, M) mask, shared by the heads
    assert(cells > 0 && value.data.size() % cells == 0);
    return count_non_finite_unmasked(value.data.data(), in[1]->data.data(), value.data.size() / cells, cells);
}

int64_t count_non_finite(const Step& step, const StepOutput& out, const std::vector<const Tensor*>& in) {
    return out.non_finite ? *out.non_finite : count_non_finite(step, out.value, in);
}

Stepper::Stepper(ModelConfig config, Weights weights, ForwardInputs inputs, uint64_t first_version)
    : config_(std::move(config)),
      weights_(std::move(weights)),
      inputs_(std::move(inputs)),
      next_version_(std::max<uint64_t>(first_version, 1)) {
    steps_ = build_forward_steps(config_);
    trace_.assign(steps_.size(), {});
    dropped_.assign(steps_.size(), 0);
    computed_from_.assign(steps_.size(), kRowsUnchanged);
    rebuild_index();
    apply_trace_keep();
}

Result<Stepper> Stepper::create(const ModelConfig& config, Weights weights, ForwardInputs inputs,
                                uint64_t first_version) {
    if (auto st = validate_config(config); !st) return st.error();
    if (auto st = check_weights(config, weights); !st) return st.error();
    if (auto st = check_inputs(config, inputs); !st) return st.error();
    return Stepper(config, std::move(weights), std::move(inputs), first_version);
}

void Stepper::rebuild_index() {
    row_magnitudes_.reset(steps_.size());
    index_.clear();
    id_index_.clear();
    input_index_.assign(steps_.size(), {});
    readers_.assign(steps_.size(), {});
    for (size_t i = 0; i < steps_.size(); ++i) {
        for (const StepId& in : steps_[i].inputs) {
            auto it = id_index_.find(in);
            assert(it != id_index_.end() && "a step reads a step that comes after it");
            input_index_[i].push_back(it->second);
            readers_[it->second].push_back(i);
        }
        index_[steps_[i].path] = i;
        id_index_[steps_[i].record.id] = i;
    }
}

std::optional<size_t> Stepper::find(const StepId& id) const {
    auto it = id_index_.find(id);
    if (it == id_index_.end()) return std::nullopt;
    return it->second;
}

const TraceEntry* Stepper::entry(const StepId& id) const {
    auto i = find(id);
    if (!i || *i >= cursor_) return nullptr;
    if (dropped_[*i]) recompute_for_view(*i);
    return &trace_[*i];
}

const Tensor* Stepper::output(const StepId& id) const {
    const TraceEntry* e = entry(id);
    return e ? &e->value : nullptr;
}

namespace {

// Whether step i's rows can be made alone: a dropped output that computes by rows, from inputs that are held or whose
// rows can themselves be made alone (Gemma 2's probabilities read its soft-capped logits, both on demand).
bool rows_made_alone(size_t i, const std::vector<Step>& steps, const std::vector<std::vector<size_t>>& input_index,
                     const std::vector<char>& dropped) {
    if (!dropped[i] || !computes_by_rows(steps[i]) || key_input(steps[i].record.id)) return false;
    return std::all_of(input_index[i].begin(), input_index[i].end(),
                       [&](size_t j) { return !dropped[j] || rows_made_alone(j, steps, input_index, dropped); });
}

}  // namespace

std::optional<Tensor> Stepper::output_rows(const StepId& id, int64_t from, int64_t to) const {
    const auto i = find(id);
    if (!i || *i >= cursor_) return std::nullopt;
    const int axis = row_axis(id);
    if (from < 0 || from > to || to > row_count(trace_[*i].value, axis)) return std::nullopt;
    if (!rows_made_alone(*i, steps_, input_index_, dropped_)) {
        const Tensor* whole = output(id);
        return slice_rows(*whole, axis, from, to);
    }
    StepContext ctx{config_, weights_, inputs_, {}};
    ctx.first_row = from;
    const auto& inputs = input_index_[*i];
    std::vector<Tensor> sliced;
    sliced.reserve(inputs.size());
    for (size_t j : inputs) {
        const StepId& input = steps_[j].record.id;
        std::optional<Tensor> rows = dropped_[j] ? output_rows(input, from, to)
                                                 : slice_rows(trace_[j].value, row_axis(input), from, to);
        if (!rows) return slice_rows(*output(id), axis, from, to);  // an input with fewer rows: the whole, as output()
        sliced.push_back(std::move(*rows));
        ctx.in.push_back(&sliced.back());
    }
    ctx.takeable_first_input = inputs.empty() ? nullptr : &sliced.front();
    return steps_[*i].compute(ctx).value;
}

const TraceEntry* Stepper::run_facts(const StepId& id) const {
    auto i = find(id);
    return i && *i < cursor_ ? &trace_[*i] : nullptr;
}

const TraceEntry* Stepper::run_facts(const std::string& path) const {
    auto i = find(path);
    return i && *i < cursor_ ? &trace_[*i] : nullptr;
}

std::optional<size_t> Stepper::find(const std::string& path) const {
    auto it = index_.find(path);
    if (it == index_.end()) return std::nullopt;
    return it->second;
}

const TraceEntry* Stepper::entry(const std::string& path) const {
    auto i = find(path);
    if (!i || *i >= cursor_) return nullptr;
    if (dropped_[*i]) recompute_for_view(*i);
    return &trace_[*i];
}

const Tensor* Stepper::output(const std::string& path) const {
    const TraceEntry* e = entry(path);
    return e ? &e->value : nullptr;
}

StepContext Stepper::context(size_t i, std::vector<size_t>& recomputed) const {
    StepContext ctx{config_, weights_, inputs_, {}};
    for (size_t j : input_index_[i]) {
        assert(trace_[j].version != 0 && "input not computed");
        if (dropped_[j]) {
            recompute_dropped(j);
            recomputed.push_back(j);
        }
        ctx.in.push_back(&trace_[j].value);
    }
    return ctx;
}

void Stepper::compute(size_t i) {
    if (steps_[i].record.id.kind == StepKind::probs && steps_[i].retention == Retention::on_demand &&
        known_finite(i)) {
        // A checkpoint trace's probabilities, which no step reads: their facts are known without them (the logits'
        // shape, finite), so they are made only when a view asks. Made here, at the end of a 1B model's pass over
        // 2,048 tokens, they were 1 GiB beside the logits' 1 GiB: the pass's peak.
        assert(readers_[i].empty());
        Tensor facts;  // the shape without the numbers, as a dropped output keeps it
        facts.shape = trace_[input_index_[i][0]].value.shape;
        remember_for_undo(i);
        trace_[i] = {std::move(facts), {}, next_version_++, 0};
        dropped_[i] = 1;
        ++last_computed_;
        computed_from_[i] = 0;
        drop_finished_inputs(i);
        report_computed(i);
        return;
    }
    std::vector<size_t> recomputed;  // held until the steps reading them have run, as the run's own outputs are
    StepContext ctx = context(i, recomputed);
    // An on-demand input 0 that would be dropped after this step may become its output's array.
    const size_t first = input_index_[i].empty() ? kNoStep : input_index_[i][0];
    if (first != kNoStep && steps_[first].retention == Retention::on_demand && !read_after(first, i))
        ctx.takeable_first_input = &trace_[first].value;
    StepOutput out = steps_[i].compute(ctx);
    if (ctx.takeable_first_input && trace_[first].value.data.empty() && !out.value.data.empty()) {
        dropped_[first] = 1;  // taken: recomputed if asked for, as if dropped after this step
        std::erase(recently_recomputed_, first);
    }
    const int64_t non_finite = known_finite(i) ? 0 : count_non_finite(steps_[i], out, ctx.in);
    remember_for_undo(i);
    trace_[i] = {std::move(out.value), std::move(out.fully_masked_rows), next_version_++, non_finite};
    dropped_[i] = 0;
    ++last_computed_;
    computed_from_[i] = 0;
    drop_finished_inputs(i);
    if (steps_[i].retention == Retention::on_demand && readers_[i].empty()) {  // probabilities not known finite
        trace_[i].value.data = {};
        dropped_[i] = 1;
    }
    report_computed(i);
}

bool Stepper::known_finite(size_t i) const {
    const auto& in = input_index_[i];
    if (!std::all_of(in.begin(), in.end(), [&](size_t j) { return trace_[j].non_finite == 0; })) return false;
    const StepId& id = steps_[i].record.id;
    if (id.kind == StepKind::attention && id.stage == AttentionStage::scores) {  // Q and K are kept, whole
        const TraceEntry &q = trace_[in[0]], &k = trace_[in[1]];
        return scores_cannot_overflow(row_magnitudes_.of(in[0], q.value, q.version),
                                      row_magnitudes_.of(in[1], k.value, k.version), q.value.dim(2));
    }
    return finite_from_finite(id);
}

void Stepper::report_computed(size_t i) {
    if (work_first_ == kNoStep) work_first_ = i;
    report_progress({work_first_, i, std::max(work_end_, i + 1), &steps_[i].path});
}

// The same function of the same inputs: the same numbers, so version and counts stay as the run set them.
void Stepper::recompute_dropped(size_t i) const {
    assert(dropped_[i] && steps_[i].retention == Retention::on_demand);
    std::vector<size_t> recomputed;
    StepContext ctx = context(i, recomputed);
    // An input made only for this step is this step's to take (÷√D, the mask and softmax write over theirs): a
    // chain of (H, T, T) stages then needs one array, not one per stage.
    const size_t first = input_index_[i].empty() ? kNoStep : input_index_[i][0];
    if (first != kNoStep && std::find(recomputed.begin(), recomputed.end(), first) != recomputed.end())
        ctx.takeable_first_input = &trace_[first].value;
    trace_[i].value = steps_[i].compute(ctx).value;
    dropped_[i] = 0;
    for (size_t j : recomputed) {
        trace_[j].value.data = {};
        dropped_[j] = 1;
    }
}

void Stepper::recompute_for_view(size_t i) const {
    recompute_dropped(i);
    recently_recomputed_.push_back(i);
    while (recently_recomputed_.size() > kOnDemandHeld) {
        const size_t oldest = recently_recomputed_.front();
        recently_recomputed_.pop_front();
        if (std::find(recently_recomputed_.begin(), recently_recomputed_.end(), oldest) != recently_recomputed_.end())
            continue;  // asked for again since: still among the newest
        trace_[oldest].value.data = {};
        dropped_[oldest] = 1;
    }
}

bool Stepper::read_after(size_t j, size_t i) const {
    const auto& readers = readers_[j];
    return std::any_of(readers.begin(), readers.end(), [&](size_t r) { return r > i && r < cursor_; });
}

void Stepper::drop_finished_inputs(size_t i) {
    for (size_t j : input_index_[i]) {
        if (steps_[j].retention != Retention::on_demand || dropped_[j]) continue;
        if (read_after(j, i)) continue;
        trace_[j].value.data = {};
        dropped_[j] = 1;
        std::erase(recently_recomputed_, j);
    }
}

void Stepper::release_views() const {
    for (size_t i : recently_recomputed_) {
        trace_[i].value.data = {};
        dropped_[i] = 1;
    }
    recently_recomputed_.clear();
}

void Stepper::set_trace_keep(TraceKeep choice) {
    begin_call();
    keep_choice_ = choice;
    apply_trace_keep();
}

TraceKeep Stepper::resolved_trace_keep(const std::vector<Step>& steps, const ModelConfig& config) const {
    return resolve_trace_keep(keep_choice_,
                              standard_trace_large_bytes(steps, config, static_cast<int64_t>(inputs_.src_ids.size()),
                                                         static_cast<int64_t>(inputs_.tgt_ids.size())),
                              keep_);
}

void Stepper::apply_trace_keep() {
    keep_ = resolved_trace_keep(steps_, config_);
    std::vector<Retention> was;
    for (const Step& step : steps_) was.push_back(step.retention);
    assign_retentions(steps_, keep_);
    // In step order, so a step kept again is recomputed from inputs already in their new state.
    for (size_t i = 0; i < cursor_; ++i) {
        Step& step = steps_[i];
        if (step.retention == Retention::kept) {
            if (dropped_[i]) {
                step.retention = Retention::on_demand;  // as it was dropped
                recompute_dropped(i);
                step.retention = Retention::kept;
            }
            std::erase(recently_recomputed_, i);
        } else if (was[i] == Retention::kept && !dropped_[i]) {
            trace_[i].value.data = {};
            dropped_[i] = 1;
        }
    }
}

int64_t Stepper::held_floats() const {
    int64_t n = 0;
    for (size_t i = 0; i < cursor_; ++i) n += trace_[i].value.numel();
    return n;
}

std::optional<size_t> Stepper::first_non_finite_step() const {
    for (size_t i = 0; i < cursor_; ++i)
        if (trace_[i].non_finite > 0) return i;
    return std::nullopt;
}

void Stepper::begin_call() {
    undo_patch();
    release_views();
    work_first_ = kNoStep;
    work_end_ = cursor_;
    last_computed_ = 0;
    computed_from_.assign(steps_.size(), kRowsUnchanged);
    versions_before_call_.resize(steps_.size());
    for (size_t i = 0; i < steps_.size(); ++i) versions_before_call_[i] = i < cursor_ ? trace_[i].version : 0;
}

int64_t Stepper::rows_kept_since(const StepId& id, uint64_t version) const {
    const auto i = find(id);
    if (!i || *i >= cursor_ || version == 0) return 0;
    if (trace_[*i].version == version) return kRowsUnchanged;
    const bool from_version = *i < versions_before_call_.size() && versions_before_call_[*i] == version;
    return from_version && computed_from_[*i] != kRowsUnchanged ? computed_from_[*i] : 0;
}

std::optional<int64_t> Stepper::last_computed_from(size_t i) const {
    if (i >= computed_from_.size() || computed_from_[i] == kRowsUnchanged) return std::nullopt;
    return computed_from_[i];
}

void Stepper::advance() {
    ++cursor_;  // first, so that compute() sees step cursor_ - 1 among the steps that have run
    compute(cursor_ - 1);
}

void Stepper::retreat() {
    trace_[--cursor_] = {};
    dropped_[cursor_] = 0;
}

bool Stepper::step_forward() {
    begin_call();
    if (cursor_ >= steps_.size()) return false;
    work_end_ = cursor_ + 1;
    advance();
    return true;
}

bool Stepper::step_back() {
    begin_call();
    if (cursor_ == 0) return false;
    retreat();
    return true;
}

void Stepper::run_to(size_t target) {
    begin_call();
    target = std::min(target, steps_.size());
    work_end_ = std::max(target, cursor_);
    while (cursor_ < target) advance();
    while (cursor_ > target) retreat();
}

template <class Seed>
void Stepper::rerun_affected(Seed seed) {
    begin_call();
    std::vector<bool> dirty(steps_.size(), false);
    for (size_t i = 0; i < cursor_; ++i) {
        dirty[i] = seed(i);
        for (size_t j : input_index_[i]) dirty[i] = dirty[i] || dirty[j];
        if (dirty[i]) compute(i);
    }
}

void Stepper::rerun_control(const Control& control) {
    rerun_affected([&](size_t i) {
        for (const auto& c : steps_[i].controls)
            if (c == control) return true;
        return false;
    });
}

// Mask cells the user set that lie outside the current sequences are forgotten, so that a
// shorter-then-longer sequence does not bring them back on other tokens.
void Stepper::prune_mask_overrides() {
    const int S = static_cast<int>(inputs_.src_ids.size()), T = static_cast<int>(inputs_.tgt_ids.size());
    auto length = [&](Sequence seq) { return seq == Sequence::source ? S : T; };
    for (auto& [use, cells] : inputs_.mask_overrides) {
        const StepRecord mask = StepRecord::of(StepId::mask_of(use), config_);
        const int rows = length(mask.rows), cols = length(*mask.keys);
        std::erase_if(cells, [&](const auto& cell) { return cell.first.first >= rows || cell.first.second >= cols; });
    }
}

Status Stepper::set_src_ids(std::vector<int> ids) {
    if (!config_.has_encoder()) return Error{"this model has no encoder, so no source sequence"};
    if (auto st = check_ids(ids, config_.src_vocab_size, config_.max_len, "source"); !st) return st;
    inputs_.src_ids = std::move(ids);
    prune_mask_overrides();
    release_views();
    apply_trace_keep();
    rerun_rows(kSrcIdsControl);
    return ok_status();
}

Status Stepper::set_tgt_ids(std::vector<int> ids) {
    if (!config_.has_decoder()) return Error{"this model has no decoder, so no target sequence"};
    if (auto st = check_ids(ids, config_.tgt_vocab_size, config_.max_len, decoder_sequence_name(config_)); !st) return st;
    inputs_.tgt_ids = std::move(ids);
    prune_mask_overrides();
    release_views();
    apply_trace_keep();
    rerun_rows(kTgtIdsControl);
    return ok_status();
}

Status Stepper::set_mask_cell(AttentionUse use, int row, int col, bool allowed) {
    if (!find(StepId::mask_of(use))) return Error{"this model has no " + step_path(StepId::mask_of(use))};
    if (row < 0 || col < 0 || row >= config_.max_len || col >= config_.max_len)
        return Error{"mask cell (" + std::to_string(row) + ", " + std::to_string(col) + ") is outside max_len"};
    inputs_.mask_overrides[use][{row, col}] = allowed;
    rerun_control(Control::mask_of(use));
    return ok_status();
}

void Stepper::clear_mask_overrides(AttentionUse use) {
    if (inputs_.mask_overrides.erase(use)) rerun_control(Control::mask_of(use));
}

Status Stepper::set_head_ablated(const AttentionSite& site, int head, bool ablated) {
    if (!find(StepId::attention_at(site, AttentionStage::context)))
        return Error{"'" + attention_name(site) + "' is not an attention of this model"};
    if (head < 0 || head >= config_.n_heads)
        return Error{"head " + std::to_string(head) + " is outside 0.." + std::to_string(config_.n_heads - 1)};
    auto& heads = inputs_.ablated_heads[site];
    if (ablated)
        heads.insert(head);
    else
        heads.erase(head);
    if (heads.empty()) inputs_.ablated_heads.erase(site);
    rerun_control(Control::ablation_of(site));
    return ok_status();
}

Status Stepper::set_expert_ablated(const FfnSite& ffn, int expert, bool ablated) {
    const StepId routing = StepId::ffn_at(ffn.stack, ffn.layer, FfnPart::routing);
    if (!find(routing)) return Error{"'" + step_path(routing) + "' is not a step of this model (no experts there)"};
    if (expert < 0 || expert >= config_.n_experts)
        return Error{"expert " + std::to_string(expert) + " is outside 0.." + std::to_string(config_.n_experts - 1)};
    auto& experts = inputs_.ablated_experts[ffn];
    if (ablated)
        experts.insert(expert);
    else
        experts.erase(expert);
    if (experts.empty()) inputs_.ablated_experts.erase(ffn);
    rerun_control(Control::experts_of(ffn));
    return ok_status();
}

Status Stepper::set_weight_value(const std::string& name, int64_t flat_index, float value) {
    const Tensor* t = weights_.find(name);
    if (!t) return Error{"no weight named '" + name + "'"};
    if (flat_index < 0 || flat_index >= t->numel())
        return Error{"index " + std::to_string(flat_index) + " is outside '" + name + "' " + shape_string(t->shape)};
    Weights edited = weights_;
    edited.set_value(name, flat_index, value);
    return set_model(config_, std::move(edited));
}

Status Stepper::set_model(const ModelConfig& config, Weights weights) {
    if (auto st = validate_config(config); !st) return st.error();
    if (auto st = check_weights(config, weights); !st) return st.error();
    if (auto st = check_inputs(config, inputs_); !st) return st.error();

    undo_patch();
    release_views();
    std::vector<Step> new_steps = build_forward_steps(config);
    const TraceKeep keep = resolved_trace_keep(new_steps, config);
    assign_retentions(new_steps, keep);
    // A new step may keep its old output when the same path computed the same function
    // (signature) of unchanged parameter tensors; the dirty pass then handles its inputs.
    std::vector<TraceEntry> new_trace(new_steps.size());
    std::vector<char> new_dropped(new_steps.size(), 0);
    std::vector<bool> reusable(new_steps.size(), false);
    size_t new_cursor = 0;
    for (size_t i = 0; i < new_steps.size(); ++i) {
        auto old = find(new_steps[i].path);
        if (!old || *old >= cursor_ || steps_[*old].signature() != new_steps[i].signature()) continue;
        bool same_params = true;
        for (const auto& p : new_steps[i].params) same_params = same_params && weights.shared(p) == weights_.shared(p);
        // An output dropped under the old policy that the new one keeps is computed again.
        reusable[i] = same_params && !(dropped_[*old] && new_steps[i].retention == Retention::kept);
        if (reusable[i]) {
            new_trace[i] = std::move(trace_[*old]);
            new_dropped[i] = dropped_[*old];
        }
    }
    // The cursor keeps its place: it stops at the first new step that had not run before.
    new_cursor = new_steps.size();
    if (cursor_ < steps_.size()) {
        for (new_cursor = 0; new_cursor < new_steps.size(); ++new_cursor) {
            auto old = find(new_steps[new_cursor].path);
            if (!old || *old >= cursor_) break;
        }
    }
    config_ = config;
    weights_ = std::move(weights);
    steps_ = std::move(new_steps);
    trace_ = std::move(new_trace);
    dropped_ = std::move(new_dropped);
    cursor_ = new_cursor;
    keep_ = keep;
    rebuild_index();
    rerun_affected([&](size_t i) { return !reusable[i]; });
    return ok_status();
}

}  // namespace attnlab
