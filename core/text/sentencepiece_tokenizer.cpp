// A tokenizer.model folder's tokenizer: special tokens cut out, the pieces between encoded by the model,
// <s> and </s> added around them.
#include "text/sentencepiece_tokenizer.h"

#include "text/utf8.h"

namespace attnlab {

SentencePieceTokenizer::SentencePieceTokenizer(SentencePieceModel model, Vocab vocab,
                                               std::vector<SpecialToken> specials, SentencePieceOptions options,
                                               std::string name)
    : model_(std::move(model)),
      vocab_(std::move(vocab)),
      specials_(std::move(specials)),
      options_(options),
      name_(std::move(name)) {}

Result<SentencePieceTokenizer> SentencePieceTokenizer::from_model(const TokenizerFile& file,
                                                                  SentencePieceOptions options) {
    Result<SentencePieceModel> model = SentencePieceModel::from_bytes(file);
    if (!model) return model.error();
    const std::string name(file.name);
    if (options.add_bos && !model->bos_id()) return Error{name + ": has no <s> piece, and add_bos_token asks for one"};
    if (options.add_eos && !model->eos_id()) return Error{name + ": has no </s> piece, and add_eos_token asks for one"};
    std::vector<std::string> pieces;
    std::vector<SpecialToken> specials;
    for (int id = 0; id < model->size(); ++id) {
        pieces.push_back(model->piece(id));
        if (model->is_control(id) || model->is_unknown(id)) specials.push_back({model->piece(id), id});
    }
    Result<Vocab> vocab = Vocab::from_tokens(std::move(pieces));
    if (!vocab) return Error{name + ": " + vocab.error().message};
    const std::string file_name = name.substr(name.find_last_of("/\\") + 1);  // the folder's file, not its path
    return SentencePieceTokenizer(std::move(*model), std::move(*vocab), std::move(specials), options,
                                  file_name.empty() ? "SentencePiece" : "SentencePiece (" + file_name + ")");
}

Result<SubwordEncoding> SentencePieceTokenizer::encode(std::string_view text) const {
    if (!is_valid_utf8(text)) return split_code_points(text).error();  // names the offset
    SubwordEncoding out;
    if (options_.add_bos) out.append_added(vocab_.token(*model_.bos_id()), *model_.bos_id(), 0);
    for (const TextSegment& segment : split_special_tokens(text, specials_)) {
        if (segment.special_id) {
            out.append(text, *segment.special_id, segment.span);
            continue;
        }
        const size_t at = segment.span.begin;
        for (const SentencePiece& p : model_.encode(text.substr(at, segment.span.end - at))) {
            if (model_.is_unknown(p.id)) out.tokens.unknown.push_back(static_cast<int>(out.tokens.ids.size()));
            if (p.span.begin == p.span.end) {
                // The id's own piece: an unknown "▁" (a model without that piece) is the library's "▁" at id <unk>.
                out.append_added(vocab_.token(p.id), p.id, at + p.span.begin);
            } else {
                out.append(text, p.id, {at + p.span.begin, at + p.span.end});
            }
        }
    }
    if (options_.add_eos) out.append_added(vocab_.token(*model_.eos_id()), *model_.eos_id(), text.size());
    return out;
}

std::string SentencePieceTokenizer::decode(const std::vector<int>& ids, bool skip_special) const {
    std::string out;
    std::vector<std::string> run;  // ordinary pieces not yet decoded
    const auto write = [&](const std::string& special) {
        out += model_.decode(run) + special;
        run.clear();
    };
    for (int id : ids) {
        if (id < 0 || id >= vocab_.size()) {
            write("<?" + std::to_string(id) + ">");
        } else if (model_.is_control(id) || model_.is_unknown(id)) {
            write(skip_special ? std::string() : vocab_.token(id));
        } else {
            run.push_back(vocab_.token(id));
        }
    }
    write("");
    return out;
}

const Vocab& SentencePieceTokenizer::vocab() const { return vocab_; }

const char* SentencePieceTokenizer::name() const { return name_.c_str(); }

std::optional<int> SentencePieceTokenizer::bos_id() const {
    if (!options_.add_bos) return std::nullopt;
    return model_.bos_id();
}

}  // namespace attnlab
