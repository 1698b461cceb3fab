// Building, checking, and feeding text to a Model.
#include "model.h"

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

// A token as messages show it: a JSON string, so a token holding a newline keeps the message one line.
std::string quoted(const std::string& token) {
    return nlohmann::json(token).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Status check_vocab(const Vocab& vocab, int expected_size, const Model& m, const std::string& what) {
    if (vocab.size() != expected_size)
        return Error{what + " has " + std::to_string(vocab.size()) + " tokens, config says " +
                     std::to_string(expected_size)};
    if (m.subword_tokenizer) return ok_status();  // its special tokens are its own ([CLS], <|endoftext|>)
    const ModelConfig& c = m.config;
    const std::pair<int, const char*> specials[] = {
        {c.pad_id, kPadToken}, {c.sos_id, kSosToken}, {c.eos_id, kEosToken}, {c.unk_id, kUnkToken}};
    for (auto [id, token] : specials)
        if (vocab.token(id) != token)
            return Error{what + " token " + std::to_string(id) + " is " + quoted(vocab.token(id)) + ", expected " +
                         quoted(token)};
    return ok_status();
}

// `subword`: the side's subword tokenizer, or null.
Result<Tokenized> encode_text(const std::optional<Vocab>& vocab, const SubwordTokenizer* subword, const Model& model,
                              std::string_view text, const std::string& what) {
    if (!vocab) return Error{"this model has no " + what + " vocabulary; give token ids instead of text"};
    if (subword) {
        auto encoded = subword->encode(text);
        if (!encoded) return Error{what + " text: " + encoded.error().message};
        return std::move(encoded->tokens);
    }
    auto t = tokenize(*vocab, model.tokenizer, text, model.config.unk_id);
    if (!t) return Error{what + " text: " + t.error().message};
    return t;
}

}  // namespace

Status check_model(const Model& m) {
    if (auto st = validate_config(m.config); !st) return st;
    if (auto st = check_weights(m.config, m.weights); !st) return st;
    if (m.src_vocab) {
        if (!m.config.has_encoder()) return Error{"src_vocab given but the model has no encoder"};
        if (auto st = check_vocab(*m.src_vocab, m.config.src_vocab_size, m, "src_vocab"); !st) return st;
    }
    if (m.tgt_vocab) {
        if (!m.config.has_decoder()) return Error{"tgt_vocab given but the model has no decoder"};
        if (auto st = check_vocab(*m.tgt_vocab, m.config.tgt_vocab_size, m, "tgt_vocab"); !st) return st;
    }
    return ok_status();
}

Result<Model> make_random_model(const std::string& preset, uint64_t seed, std::optional<Vocab> src_vocab,
                                std::optional<Vocab> tgt_vocab, TokenizerKind tokenizer) {
    if (!src_vocab && !tgt_vocab) {
        src_vocab = tgt_vocab = default_char_vocab();
        tokenizer = TokenizerKind::character;
    }
    if (!src_vocab || !tgt_vocab) return Error{"give both a source and a target vocabulary, or neither"};
    auto config = preset_config(preset, src_vocab->size(), tgt_vocab->size());
    if (!config) return config.error();
    Model m{*config, init_weights(*config, seed), std::move(src_vocab), std::move(tgt_vocab), tokenizer, {}, nullptr};
    if (auto st = check_model(m); !st) return st.error();
    return m;
}

std::string tokenizer_name(const Model& model) {
    if (!model.src_vocab && !model.tgt_vocab) return "no";  // runs on token ids
    return model.subword_tokenizer ? model.subword_tokenizer->name() : to_string(model.tokenizer);
}

Result<Tokenized> encode_source_text(const Model& model, std::string_view text) {
    auto t = encode_text(model.src_vocab, model.subword_tokenizer.get(), model, text, "source");
    if (!t || model.subword_tokenizer) return t;
    t->ids.push_back(model.config.eos_id);
    t->pieces.push_back(kEosToken);
    return t;
}

Result<Tokenized> encode_target_text(const Model& model, std::string_view text) {
    const auto& target = model.target_subword_tokenizer ? model.target_subword_tokenizer : model.subword_tokenizer;
    auto t = encode_text(model.tgt_vocab, target.get(), model, text, "target");
    if (!t) return t;
    if (model.subword_tokenizer) {
        if (model.config.arch != Arch::encoder_decoder) return t;
        // A translator's tokenizer gives the labels, ending with </s>; the decoder reads them shifted right,
        // after decoder_start_token_id (Hugging Face's shift_tokens_right).
        if (!t->ids.empty() && t->ids.back() == model.config.eos_id) {
            t->ids.pop_back();
            t->pieces.pop_back();
            std::erase(t->unknown, static_cast<int>(t->ids.size()));
        }
        t->ids.insert(t->ids.begin(), model.config.sos_id);
        t->pieces.insert(t->pieces.begin(), target->vocab().token(model.config.sos_id));
        for (int& u : t->unknown) ++u;
        return t;
    }
    t->ids.insert(t->ids.begin(), model.config.sos_id);
    t->pieces.insert(t->pieces.begin(), kSosToken);
    for (int& u : t->unknown) ++u;
    return t;
}

}  // namespace attnlab
