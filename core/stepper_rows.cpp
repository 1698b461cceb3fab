// The stepper's row-by-row re-run after an edit of the ids (step_rows.h says which rows each step
// can change). Three passes over the steps below the cursor:
//   1. what changed: steps without inputs and the masks are recomputed whole and compared with what
//      they were; every other step's first changed row follows from its inputs' (and, for QKᵀ and
//      weights·V, from the attention's mask: which query rows see a changed key);
//   2. where each slice starts: on-demand steps start where the steps reading them need them;
//   3. compute: each step computes its rows from its start on, from its inputs' rows, and merges them
//      under the rows it keeps. On-demand outputs are held only until the steps reading them have run.
// The rows are the numbers a whole re-run would write, bit for bit: every kernel computes a row from
// that row alone, the same way wherever it lies (ops/gemm.h, ops/lane_sum.h).
#include "stepper.h"

#include "ops/attention.h"
#include "step_rows.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// Non-finite entries (count_non_finite for `step`) of QKᵀ (÷√D when `scaled`) in query rows [0, rows) and key rows [first_key, M):
// what the changed keys write into old rows. The slice leaves those rows out, since the mask hides
// those keys from them, but the stage's count must be the whole one. q (H, N, D), k (H, M, D).
int64_t old_rows_changed_keys_non_finite(const Step& step, const Tensor& q, const Tensor& k, int64_t rows,
                                         int64_t first_key, bool scaled) {
    if (rows == 0 || first_key >= k.dim(1)) return 0;
    const int64_t H = q.dim(0), N = q.dim(1), D = q.dim(2);
    Tensor top({H, rows, D});  // (H, rows, D)
    for (int64_t h = 0; h < H; ++h) std::copy_n(q.data.data() + h * N * D, rows * D, top.data.data() + h * rows * D);
    const Tensor block = attention_scores(top, slice_rows(k, 1, first_key));  // (H, rows, M − first_key)
    return count_non_finite(step, scaled ? scale_scores(block, static_cast<float>(D)) : block, {});
}

struct RowSlice {
    int64_t from = 0;  // the slice's first row
    Tensor rows;       // rows [from, N) of the step's output
};

}  // namespace

bool Stepper::rows_rerun_applies() const {
    // Old rows are kept only where the old trace was finite: a NaN's reach is not a question of rows.
    return !first_non_finite_step().has_value();
}

void Stepper::rerun_rows(const Control& control) {
    if (!rows_rerun_applies()) return rerun_control(control);
    begin_call();
    if (!rerun_rows_from({&control})) rerun_control(control);
}

bool Stepper::rerun_rows_from(const RowSeed& seed) {
    const size_t n = cursor_;
    auto reads_control = [&](size_t i) {
        const auto& c = steps_[i].controls;
        return seed.control && std::find(c.begin(), c.end(), *seed.control) != c.end();
    };
    // The mask the attention of an attention step reads: the masked stage's second input.
    auto mask_of = [&](size_t i) -> const Tensor& {
        const auto masked = find(StepId::attention_at(steps_[i].record.id.site(), AttentionStage::masked));
        assert(masked && input_index_[*masked].size() == 2);
        return trace_[input_index_[*masked][1]].value;
    };

    // 1. What changed: changed[i] is the first row that can differ (kRowsUnchanged: none, same shape).
    std::vector<int64_t> changed(n, kRowsUnchanged);
    std::vector<Shape> shape(n);  // the new output shapes
    for (size_t i = 0; i < n; ++i) {
        const Step& step = steps_[i];
        shape[i] = trace_[i].value.shape;
        if (i == seed.patched) {  // already overwritten
            changed[i] = seed.first_row;
            continue;
        }
        if (!computes_by_rows(step)) {
            bool dirty = reads_control(i);
            for (size_t j : input_index_[i]) dirty = dirty || changed[j] != kRowsUnchanged;
            if (!dirty) continue;
            std::vector<size_t> recomputed;
            const StepContext ctx = context(i, recomputed);
            assert(recomputed.empty() && "the masks and embeddings read kept outputs only");
            StepOutput out = step.compute(ctx);
            changed[i] = first_differing_row(trace_[i].value, out.value);
            if (changed[i] == kRowsUnchanged) continue;  // the same numbers: the old output and version stay
            const int64_t non_finite = count_non_finite(step, out, ctx.in);
            shape[i] = out.value.shape;
            remember_for_undo(i);
            trace_[i] = {std::move(out.value), std::move(out.fully_masked_rows), next_version_++, non_finite};
            ++last_computed_;
            computed_from_[i] = 0;
            continue;
        }
        const int axis = row_axis(step.record.id);
        const auto key = key_input(step.record.id);
        int64_t first = kRowsUnchanged;
        for (size_t k = 0; k < input_index_[i].size(); ++k) {
            const size_t j = input_index_[i][k];
            if (changed[j] == kRowsUnchanged) continue;
            first = std::min(first, key && k == *key ? first_row_seeing(mask_of(i), changed[j]) : changed[j]);
        }
        // The new shape: the rows of the first input (its query rows), the columns of the keys.
        const size_t rows_from = input_index_[i][0];
        Shape s = trace_[i].value.shape;
        s[static_cast<size_t>(axis)] = shape[rows_from][static_cast<size_t>(row_axis(steps_[rows_from].record.id))];
        if (step.record.id.kind == StepKind::attention && is_score_stage(step.record.id.stage)) {
            const Shape& keys = shape[input_index_[i][step.record.id.stage == AttentionStage::scores ? 1 : 0]];
            s[2] = keys[step.record.id.stage == AttentionStage::scores ? 1 : 2];
        }
        if (s != shape[i]) first = std::min(first, s[static_cast<size_t>(axis)]);
        changed[i] = first == kRowsUnchanged ? kRowsUnchanged : std::min(first, s[static_cast<size_t>(axis)]);
        shape[i] = s;
    }

    // 2. Where each computed slice starts: an on-demand output is not held, so it starts where the
    // earliest step reading it starts.
    std::vector<int64_t> from(n, kRowsUnchanged);
    for (size_t i = n; i-- > 0;) {
        const Step& step = steps_[i];
        if (!computes_by_rows(step) || i == seed.patched) continue;
        int64_t start = changed[i];
        if (step.retention == Retention::on_demand)
            for (size_t r : readers_[i])
                if (r < n && computes_by_rows(steps_[r])) start = std::min(start, from[r]);
        from[i] = start;
    }

    // 3. Compute the slices in step order.
    std::vector<RowSlice> held(n);  // on-demand slices until their readers have run
    std::vector<size_t> readers_left(n, 0);
    for (size_t i = 0; i < n; ++i)
        for (size_t r : readers_[i])
            if (r < n && from[r] != kRowsUnchanged) ++readers_left[i];
    for (size_t i = 0; i < n; ++i) {
        if (from[i] == kRowsUnchanged) continue;
        const Step& step = steps_[i];
        const StepId& id = step.record.id;
        const int axis = row_axis(id);
        const auto key = key_input(id);
        const int64_t rows = shape[i][static_cast<size_t>(axis)];
        // A changed V row that is not finite reaches every query through its zero weight (0·∞ = NaN).
        if (key && id.stage == AttentionStage::context && changed[input_index_[i][*key]] != kRowsUnchanged &&
            trace_[input_index_[i][*key]].non_finite > 0)
            return false;
        std::vector<Tensor> sliced(input_index_[i].size());  // query-row inputs: their rows [from, N)
        StepContext ctx{config_, weights_, inputs_, {}};
        ctx.first_row = from[i];
        for (size_t k = 0; k < input_index_[i].size(); ++k) {
            const size_t j = input_index_[i][k];
            if (key && k == *key) {  // every key row, as it is kept
                assert(steps_[j].retention == Retention::kept);
                ctx.in.push_back(&trace_[j].value);
                continue;
            }
            const int input_axis = row_axis(steps_[j].record.id);
            const bool on_demand = steps_[j].retention == Retention::on_demand;
            Tensor& whole = on_demand ? held[j].rows : trace_[j].value;
            const int64_t skip = on_demand ? from[i] - held[j].from : from[i];
            assert(skip >= 0);
            // Input 0 may become the output's array (÷√D, the mask, softmax): a slice made for this step, or a held
            // slice this step reads last.
            if (skip > 0) {
                sliced[k] = slice_rows(whole, input_axis, skip);
                ctx.in.push_back(&sliced[k]);
                if (k == 0) ctx.takeable_first_input = &sliced[k];
                continue;
            }
            ctx.in.push_back(&whole);  // every row it holds: read in place
            if (on_demand && k == 0 && readers_left[j] == 1) ctx.takeable_first_input = &whole;
        }
        StepOutput out;
        if (rows > from[i])
            out = step.compute(ctx);
        else {
            Shape empty = shape[i];
            empty[static_cast<size_t>(axis)] = 0;
            out.value = Tensor(empty);
        }
        const bool finite = known_finite(i);
        int64_t non_finite = finite ? 0 : count_non_finite(step, out, ctx.in);
        if (!finite && id.kind == StepKind::attention &&
            (id.stage == AttentionStage::scores || id.stage == AttentionStage::scaled ||
             id.stage == AttentionStage::biased)) {  // biased: a finite bias keeps the count of the scaled scores
            size_t scores = i;
            while (steps_[scores].record.id.stage != AttentionStage::scores) scores = input_index_[scores][0];
            const size_t q = input_index_[scores][0], k = input_index_[scores][1];
            non_finite += old_rows_changed_keys_non_finite(step, trace_[q].value, trace_[k].value, from[i], changed[k],
                                                           id.stage != AttentionStage::scores);
        }
        std::vector<int64_t> fully_masked;
        for (int64_t r : trace_[i].fully_masked_rows)
            if (r < from[i]) fully_masked.push_back(r);
        for (int64_t r : out.fully_masked_rows) fully_masked.push_back(r + from[i]);
        remember_for_undo(i);
        if (step.retention == Retention::on_demand) {
            held[i] = {from[i], std::move(out.value)};
            Tensor facts;  // the shape without the numbers, as a dropped output keeps it
            facts.shape = shape[i];
            trace_[i] = {std::move(facts), std::move(fully_masked), next_version_++, non_finite};
            dropped_[i] = 1;
        } else {
            const uint64_t was = trace_[i].version, now = next_version_++;
            Tensor merged = merge_rows(std::move(trace_[i].value), out.value, axis, from[i], shape[i]);
            trace_[i] = {std::move(merged), std::move(fully_masked), now, non_finite};
            if (trace_[i].value.rank() == 3) row_magnitudes_.carry(i, was, now, trace_[i].value, from[i]);
        }
        ++last_computed_;
        computed_from_[i] = from[i];
        for (size_t j : input_index_[i])
            if (readers_left[j] > 0 && --readers_left[j] == 0) held[j] = {};
        report_computed(i);
    }
    return true;
}

}  // namespace attnlab
