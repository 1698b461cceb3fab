// The corrupted sentence read as the Input view reads its side (corrupted_input.h).
#include "corrupted_input.h"

#include "input_drafts.h"
#include "patching_tool.h"

namespace attnlab::gui {

CorruptedInput read_corrupted_input(const Model& model, const ForwardInputs& clean, const std::string& text) {
    CorruptedInput out;
    out.inputs = clean;
    const bool source = model.config.has_encoder();
    const std::vector<int>& clean_ids = source ? clean.src_ids : clean.tgt_ids;
    out.clean_length = static_cast<int>(clean_ids.size());
    const std::optional<Vocab>& vocab = source ? model.src_vocab : model.tgt_vocab;
    if (vocab) {
        auto t = source ? encode_source_text(model, text) : encode_target_text(model, text);
        if (!t) {
            out.error = t.error().message;
            return out;
        }
        out.ids = std::move(t->ids);
    } else {
        auto ids = parse_ids(text);
        if (!ids) {
            out.error = "token ids are integers separated by commas, e.g. 4,7,9,2";
            return out;
        }
        out.ids = std::move(*ids);
    }
    for (size_t i = 0; i < out.ids.size(); ++i) {
        out.labels.push_back(token_or_id(vocab, out.ids[i]));
        out.differs.push_back(i >= clean_ids.size() || clean_ids[i] != out.ids[i]);
    }
    (source ? out.inputs.src_ids : out.inputs.tgt_ids) = out.ids;
    if (auto st = check_patchable(model.config, clean, out.inputs); !st) out.error = st.error().message;
    return out;
}

}  // namespace attnlab::gui
