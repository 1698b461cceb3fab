// ids -> vocabulary tokens for the labels of explain_step.
#include "explain/explain_labels.h"

namespace attnlab {

namespace {

std::vector<std::string> tokens_of(const std::optional<Vocab>& vocab, const std::vector<int>& ids) {
    std::vector<std::string> out;
    if (!vocab) return out;
    for (int id : ids) {
        if (id < 0 || id >= vocab->size()) break;  // the rest shows as #id
        out.push_back(vocab->token(id));
    }
    return out;
}

}  // namespace

ExplainLabels explain_labels(const Model& model, const ForwardInputs& inputs) {
    ExplainLabels labels;
    labels.source = tokens_of(model.src_vocab, inputs.src_ids);
    labels.target = tokens_of(model.tgt_vocab, inputs.tgt_ids);
    const std::optional<Vocab>& output = model.config.arch == Arch::encoder_only ? model.src_vocab : model.tgt_vocab;
    if (output) labels.output_vocab = &*output;
    return labels;
}

}  // namespace attnlab
