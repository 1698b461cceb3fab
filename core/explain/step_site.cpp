// StepSite: which sequence a step's rows and key columns index, and the resolved focus.
#include "explain/step_values.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

enum class Sequence { source, target };

Sequence row_sequence(const std::string& path, const ModelConfig& c) {
    if (path.starts_with("src.") || path.starts_with("encoder.") || path == "masks.src_padding" ||
        path == "masks.encoder_self")
        return Sequence::source;
    if (path == "logits" || path == "probs") return c.arch == Arch::encoder_only ? Sequence::source : Sequence::target;
    if (path.ends_with(".cross_attn.k") || path.ends_with(".cross_attn.v")) return Sequence::source;  // keys: the memory
    return Sequence::target;
}

Sequence key_sequence(const std::string& path, const ModelConfig& c) {
    if (path.find(".cross_attn.") != std::string::npos || path == "masks.cross") return Sequence::source;
    return row_sequence(path, c);
}

std::string token_label(const StepSite& s, Sequence seq, int64_t i) {
    const bool src = seq == Sequence::source;
    const std::vector<std::string>& labels = src ? s.labels.source : s.labels.target;
    if (i >= 0 && i < static_cast<int64_t>(labels.size())) return labels[static_cast<size_t>(i)];
    const std::vector<int>& ids = src ? s.stepper.inputs().src_ids : s.stepper.inputs().tgt_ids;
    return i >= 0 && i < static_cast<int64_t>(ids.size()) ? "#" + std::to_string(ids[static_cast<size_t>(i)]) : "#?";
}

}  // namespace

const Tensor& StepSite::input(size_t i) const {
    const Tensor* t = stepper.output(step.inputs.at(i));
    assert(t && "an input of a step that has run has run too");
    return *t;
}

int StepSite::head() const { return focus.head >= 0 && focus.head < config().n_heads ? focus.head : 0; }

int StepSite::row(int64_t n_rows) const {
    return focus.row >= 0 && focus.row < n_rows ? focus.row : static_cast<int>(std::max<int64_t>(n_rows - 1, 0));
}

std::string StepSite::row_label(int64_t i) const { return token_label(*this, row_sequence(step.path, config()), i); }

std::string StepSite::key_label(int64_t j) const { return token_label(*this, key_sequence(step.path, config()), j); }

std::string StepSite::vocab_label(int64_t id) const {
    const Vocab* vocab = labels.output_vocab;
    return vocab && id >= 0 && id < vocab->size() ? vocab->token(static_cast<int>(id)) : "#" + std::to_string(id);
}

}  // namespace attnlab
