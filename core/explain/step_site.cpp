// StepSite: the resolved focus, and token labels for the sequences the step's record names.
#include "explain/step_values.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

// The sequence an attention stage's keys index. Score stages carry it in their record; the
// others (context, …) have columns that are not keys, so it is read from the stage's weights.
Sequence key_sequence(const StepSite& s) {
    const StepRecord& record = s.step.record;
    if (record.keys) return *record.keys;
    if (record.id.kind == StepKind::attention) {
        const auto weights = s.stepper.find(StepId::attention_at(record.id.site(), AttentionStage::weights));
        if (weights && s.stepper.step(*weights).record.keys) return *s.stepper.step(*weights).record.keys;
    }
    return record.rows;
}

std::string token_label(const StepSite& s, Sequence seq, int64_t i) {
    const std::vector<std::string>& labels = seq == Sequence::source ? s.labels.source : s.labels.target;
    if (i >= 0 && i < static_cast<int64_t>(labels.size())) return labels[static_cast<size_t>(i)];
    const std::vector<int>& ids = s.ids(seq);
    return i >= 0 && i < static_cast<int64_t>(ids.size()) ? "#" + std::to_string(ids[static_cast<size_t>(i)]) : "#?";
}

}  // namespace

const Tensor& StepSite::input(size_t i) const {
    const Tensor* t = stepper.output(step.inputs.at(i));
    assert(t && "an input of a step that has run has run too");
    return *t;
}

Tensor StepSite::output_row(int64_t r) const {
    std::optional<Tensor> row = stepper.output_rows(step.record.id, r, r + 1);
    assert(row && "the step has not run, or no such row");
    return std::move(*row);
}

const Shape& StepSite::output_shape() const {
    const TraceEntry* facts = stepper.run_facts(step.record.id);
    assert(facts && "the step has not run");
    return facts->value.shape;
}

int StepSite::head() const { return focus.head >= 0 && focus.head < config().n_heads ? focus.head : 0; }

int StepSite::row(int64_t n_rows) const {
    return focus.row >= 0 && focus.row < n_rows ? focus.row : static_cast<int>(std::max<int64_t>(n_rows - 1, 0));
}

const std::vector<int>& StepSite::ids(Sequence sequence) const {
    return sequence == Sequence::source ? stepper.inputs().src_ids : stepper.inputs().tgt_ids;
}

std::string StepSite::row_label(int64_t i) const { return token_label(*this, step.record.rows, i); }

std::string StepSite::key_label(int64_t j) const { return token_label(*this, key_sequence(*this), j); }

std::string StepSite::vocab_label(int64_t id) const {
    const Vocab* vocab = labels.output_vocab;
    return vocab && id >= 0 && id < vocab->size() ? vocab->token(static_cast<int>(id)) : "#" + std::to_string(id);
}

}  // namespace attnlab
