// tokenizer.json, section by section: model (vocab, merges), added_tokens, normalizer, pre_tokenizer,
// post_processor, decoder. Each reader checks the types and values it needs and names the field at fault.
#include "text/tokenizer_json.h"

#include "text/byte_level.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <string_view>

namespace attnlab {

namespace {

using nlohmann::json;

// The split patterns real files use, as tokenizer.json spells them (after JSON unescaping).
constexpr std::string_view kGpt2Pattern =
    R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kLlama3Pattern =
    R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kQwen2Pattern =
    R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";

constexpr std::string_view kBloomPattern = " ?[^(\\s|[.,!?…。，、।۔،])]+";

// A string or a JSON value as a message shows it: JSON, so control characters stay escaped.
std::string json_quoted(std::string_view s) {
    return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}
std::string shown(const json& value) {
    const std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

// Reads the fields of one file; every error is "<file>: <what>", the what naming the field.
class Reader {
public:
    explicit Reader(std::string_view file) : file_(file) {}

    Error fail(const std::string& what) const { return Error{replace_invalid_utf8(std::string(file_) + ": " + what)}; }

    // obj[key]; absent and null alike give nullptr.
    static const json* find(const json& obj, const char* key) {
        const auto it = obj.find(key);
        return it == obj.end() || it->is_null() ? nullptr : &*it;
    }
    static std::string field(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }

    // obj[key] checked; `path` names obj in messages ("model", or "" for the file's top level).
    Result<const json*> object(const json& obj, const char* key, const std::string& path) const {
        const json* v = find(obj, key);
        if (v == nullptr) return fail(field(path, key) + " is missing");
        if (!v->is_object()) return fail(field(path, key) + " is not a JSON object");
        return v;
    }
    Result<std::string> string(const json& obj, const char* key, const std::string& path) const {
        const json* v = find(obj, key);
        if (v == nullptr || !v->is_string()) return fail(field(path, key) + " is not a string");
        return v->get<std::string>();
    }
    Result<bool> boolean(const json& obj, const char* key, const std::string& path, bool fallback) const {
        const json* v = find(obj, key);
        if (v == nullptr) return fallback;
        if (!v->is_boolean()) return fail(field(path, key) + " is not true or false");
        return v->get<bool>();
    }
    // A whole number in 0..limit-1.
    Result<int> index(const json& value, const std::string& path, size_t limit) const {
        if (value.is_number_unsigned() && value.get<uint64_t>() < limit) return static_cast<int>(value.get<uint64_t>());
        return fail(path + " is " + shown(value) + "; expected a whole number in 0.." + std::to_string(limit - 1));
    }
    // The "type" of a component, e.g. pre_tokenizer.type. Sequences nest at most 8 deep, so reading
    // them recurses no deeper.
    Result<std::string> type(const json& component, const std::string& path) const {
        if (std::count(path.begin(), path.end(), '.') > 8) return fail(path + ": Sequences nested too deep");
        if (!component.is_object()) return fail(path + " is not a JSON object");
        return string(component, "type", path);
    }

private:
    std::string_view file_;
};

// One model token and its id (BPE's model.vocab object, or a Unigram piece's place in its list).
struct ModelToken {
    std::string token;
    int id = 0;
};

// BPE's model.vocab: {"token": id, ...}, each id below `limit`.
Result<std::vector<ModelToken>> bpe_vocab_entries(const Reader& r, const json& vocab, size_t limit) {
    std::vector<ModelToken> out;
    for (const auto& [token, value] : vocab.items()) {
        Result<int> id = r.index(value, "model.vocab[" + json_quoted(token) + "]", limit);
        if (!id) return id.error();
        out.push_back({token, *id});
    }
    return out;
}

// The model's tokens and added_tokens as one id -> token table: each id 0..V-1 once, an added token sharing
// the id of the same model token.
Result<Vocab> read_vocab(const Reader& r, const std::vector<ModelToken>& model_tokens,
                         const std::vector<JsonAddedToken>& added) {
    const size_t limit = model_tokens.size() + added.size();  // V is at most this
    std::vector<std::optional<std::string>> tokens(limit);
    const auto place = [&](const std::string& token, int id) -> Status {
        auto& slot = tokens[static_cast<size_t>(id)];
        if (slot && *slot != token)
            return r.fail("tokens " + json_quoted(*slot) + " and " + json_quoted(token) + " both have id " +
                          std::to_string(id));
        slot = token;
        return ok_status();
    };
    for (const ModelToken& t : model_tokens)
        if (Status s = place(t.token, t.id); !s) return s.error();
    for (const JsonAddedToken& t : added) {
        if (static_cast<size_t>(t.id) >= limit)
            return r.fail("added token " + json_quoted(t.content) + " has id " + std::to_string(t.id) + ", past the " +
                          std::to_string(limit) + " tokens of the file");
        if (Status s = place(t.content, t.id); !s) return s.error();
    }
    size_t n = limit;
    while (n > 0 && !tokens[n - 1]) --n;
    std::vector<std::string> table;
    for (size_t id = 0; id < n; ++id) {
        if (!tokens[id]) return r.fail("no token has id " + std::to_string(id) + " (model.vocab, added_tokens)");
        table.push_back(std::move(*tokens[id]));
    }
    Result<Vocab> v = Vocab::from_tokens(std::move(table));
    if (!v) return r.fail(v.error().message);  // empty, or one token at two ids
    return v;
}

Result<std::vector<JsonAddedToken>> read_added_tokens(const Reader& r, const json& doc) {
    std::vector<JsonAddedToken> out;
    const json* list = Reader::find(doc, "added_tokens");
    if (list == nullptr) return out;
    if (!list->is_array()) return r.fail("added_tokens is not a JSON array");
    for (size_t i = 0; i < list->size(); ++i) {
        const json& entry = (*list)[i];
        const std::string path = "added_tokens[" + std::to_string(i) + "]";
        if (!entry.is_object()) return r.fail(path + " is not a JSON object");
        JsonAddedToken t;
        const json* id = Reader::find(entry, "id");
        if (id == nullptr) return r.fail(path + ".id is missing");
        Result<int> value = r.index(*id, path + ".id", static_cast<size_t>(std::numeric_limits<int>::max()));
        Result<std::string> content = r.string(entry, "content", path);
        if (!value) return value.error();
        if (!content) return content.error();
        if (content->empty()) return r.fail(path + ".content is empty");
        t.id = *value;
        t.content = std::move(*content);
        for (auto [key, flag] : {std::pair{"special", &t.special}, {"lstrip", &t.lstrip}, {"rstrip", &t.rstrip}}) {
            Result<bool> b = r.boolean(entry, key, path, false);
            if (!b) return b.error();
            *flag = *b;
        }
        Result<bool> normalized = r.boolean(entry, "normalized", path, !t.special);  // Hugging Face's default
        Result<bool> single_word = r.boolean(entry, "single_word", path, false);
        if (!normalized) return normalized.error();
        if (!single_word) return single_word.error();
        if (*single_word) return r.fail(path + " (" + json_quoted(t.content) + "): single_word true is not supported");
        t.normalized = *normalized;
        out.push_back(std::move(t));
    }
    return out;
}

// One merge: "left right" or ["left", "right"]; both sides and their concatenation must be tokens.
Status read_merge(const Reader& r, const json& merge, const std::string& path, const Vocab& vocab,
                  BpeMergeTable& merges) {
    std::string left, right;
    if (merge.is_string()) {
        const std::string text = merge.get<std::string>();
        const size_t space = text.find(' ');
        if (space != std::string::npos) {
            left = text.substr(0, space);
            right = text.substr(space + 1);
        }
    } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string()) {
        left = merge[0].get<std::string>();
        right = merge[1].get<std::string>();
    }
    if (left.empty() || right.empty())
        return r.fail(path + " is " + shown(merge) + R"(; expected "left right" or ["left", "right"])");
    const std::optional<int> left_id = vocab.find(left), right_id = vocab.find(right),
                             joined_id = vocab.find(left + right);
    if (!left_id) return r.fail(path + ": " + json_quoted(left) + " is not in the vocabulary");
    if (!right_id) return r.fail(path + ": " + json_quoted(right) + " is not in the vocabulary");
    if (!joined_id)
        return r.fail(path + ": " + json_quoted(left + right) + ", what it makes, is not in the vocabulary");
    merges.add(*left_id, *right_id, *joined_id);
    return ok_status();
}

Status read_normalizer(const Reader& r, const json& n, const std::string& path, std::vector<NormalizerStep>& out) {
    Result<std::string> type = r.type(n, path);
    if (!type) return type.error();
    if (*type == "Sequence") {
        const json* list = Reader::find(n, "normalizers");
        if (list == nullptr || !list->is_array()) return r.fail(path + ".normalizers is not a JSON array");
        for (size_t i = 0; i < list->size(); ++i)
            if (Status s = read_normalizer(r, (*list)[i], path + ".normalizers[" + std::to_string(i) + "]", out); !s)
                return s;
        return ok_status();
    }
    if (*type == "NFC") {
        out.push_back({NormalizerStep::Kind::nfc, {}, {}, {}, false, false});
    } else if (*type == "Prepend") {
        Result<std::string> prefix = r.string(n, "prepend", path);
        if (!prefix) return prefix.error();
        out.push_back({NormalizerStep::Kind::prepend, {}, std::move(*prefix), {}, false, false});
    } else if (*type == "Replace") {
        const json* pattern = Reader::find(n, "pattern");
        Result<std::string> content = r.string(n, "content", path);
        if (!content) return content.error();
        if (pattern != nullptr && pattern->is_object() && pattern->size() == 1 && pattern->contains("Regex") &&
            (*pattern)["Regex"] == " {2,}") {  // transformers' SentencePiece conversions
            out.push_back({NormalizerStep::Kind::collapse_spaces, " {2,}", std::move(*content), {}, false, false});
            return ok_status();
        }
        if (pattern == nullptr || !pattern->is_object() || !pattern->contains("String") ||
            !(*pattern)["String"].is_string() || (*pattern)["String"].get<std::string>().empty())
            return r.fail(path + ".pattern is " + (pattern ? shown(*pattern) : "missing") +
                          R"(; only {"String": "..."} and {"Regex": " {2,}"} are supported)");
        out.push_back(
            {NormalizerStep::Kind::replace, (*pattern)["String"].get<std::string>(), std::move(*content), {}, false, false});
    } else if (*type == "Precompiled") {
        Result<std::string> base64 = r.string(n, "precompiled_charsmap", path);
        if (!base64) return base64.error();
        Result<PrecompiledCharsmap> charsmap = PrecompiledCharsmap::from_base64(*base64, path);
        if (!charsmap) return r.fail(charsmap.error().message);
        NormalizerStep step{NormalizerStep::Kind::precompiled, {}, {}, {}, false, false};
        step.charsmap = std::make_shared<const PrecompiledCharsmap>(std::move(*charsmap));
        out.push_back(std::move(step));
    } else if (*type == "Strip") {
        Result<bool> left = r.boolean(n, "strip_left", path, true);
        Result<bool> right = r.boolean(n, "strip_right", path, true);
        if (!left) return left.error();
        if (!right) return right.error();
        out.push_back({NormalizerStep::Kind::strip, {}, {}, {}, *left, *right});
    } else {
        return r.fail(path + ".type " + json_quoted(*type) +
                      " is not supported (NFC, Prepend, Replace, Precompiled, Strip, Sequence)");
    }
    return ok_status();
}

// The pre-tokenizer: Metaspace alone, WhitespaceSplit then Metaspace, or a Sequence of Split, Digits and a
// final ByteLevel.
// `byte_level` is set when a ByteLevel step is there.
Status read_pre_tokenizer(const Reader& r, const json& p, const std::string& path, TokenizerJson& out,
                          bool& byte_level) {
    Result<std::string> type = r.type(p, path);
    if (!type) return type.error();
    if (byte_level) return r.fail(path + ": ByteLevel must be the last pre-tokenizer");
    if (*type == "Sequence") {
        const json* list = Reader::find(p, "pretokenizers");
        if (list == nullptr || !list->is_array()) return r.fail(path + ".pretokenizers is not a JSON array");
        for (size_t i = 0; i < list->size(); ++i) {
            if (Status s = read_pre_tokenizer(r, (*list)[i], path + ".pretokenizers[" + std::to_string(i) + "]", out,
                                              byte_level);
                !s)
                return s;
        }
    } else if (*type == "ByteLevel") {
        Result<bool> prefix_space = r.boolean(p, "add_prefix_space", path, true);
        Result<bool> use_regex = r.boolean(p, "use_regex", path, true);
        if (!prefix_space) return prefix_space.error();
        if (!use_regex) return use_regex.error();
        if (*prefix_space) return r.fail(path + ".add_prefix_space true is not supported");
        if (*use_regex) out.splits.push_back(WordSplit::gpt2);
        byte_level = true;
    } else if (*type == "Split") {
        const json* pattern = Reader::find(p, "pattern");
        const json* regex = pattern && pattern->is_object() ? Reader::find(*pattern, "Regex") : nullptr;
        const std::string text =
            regex && regex->is_string() ? regex->get<std::string>() : (pattern ? shown(*pattern) : "");
        if (text == kGpt2Pattern) {
            out.splits.push_back(WordSplit::gpt2);
        } else if (text == kLlama3Pattern) {
            out.splits.push_back(WordSplit::llama3);
        } else if (text == kQwen2Pattern) {
            out.splits.push_back(WordSplit::qwen2);
        } else if (text == kBloomPattern) {
            out.splits.push_back(WordSplit::bloom);
        } else {
            return r.fail("unsupported pre-tokenizer pattern " + json_quoted(text) + " (" + path + ".pattern)");
        }
        Result<std::string> behavior = r.string(p, "behavior", path);
        Result<bool> invert = r.boolean(p, "invert", path, false);
        if (!behavior) return behavior.error();
        if (!invert) return invert.error();
        if (*behavior != "Isolated" || *invert)
            return r.fail(path + ": only behavior \"Isolated\" without invert is supported");
    } else if (*type == "Digits") {
        Result<bool> each = r.boolean(p, "individual_digits", path, false);
        if (!each) return each.error();
        out.splits.push_back(*each ? WordSplit::single_digits : WordSplit::digits);
    } else if (*type == "WhitespaceSplit") {
        if (path != "pre_tokenizer" && path != "pre_tokenizer.pretokenizers[0]")
            return r.fail(path + ": WhitespaceSplit is supported only as the first pre-tokenizer");
        out.whitespace_split = true;
    } else if (*type == "Metaspace") {
        const bool after_whitespace = out.whitespace_split && path == "pre_tokenizer.pretokenizers[1]";
        if (path != "pre_tokenizer" && !after_whitespace)
            return r.fail(path + ": Metaspace is supported only as the whole pre_tokenizer or after WhitespaceSplit");
        MetaspaceStep m;
        Result<std::string> replacement = r.string(p, "replacement", path);
        Result<bool> split = r.boolean(p, "split", path, true);
        if (!replacement) return replacement.error();
        if (!split) return split.error();
        if (replacement->empty()) return r.fail(path + ".replacement is empty");
        m.replacement = std::move(*replacement);
        m.split = *split;
        if (const json* scheme = Reader::find(p, "prepend_scheme")) {
            const std::string s = scheme->is_string() ? scheme->get<std::string>() : "";
            if (s != "always" && s != "first" && s != "never")
                return r.fail(path + ".prepend_scheme is " + shown(*scheme) +
                              R"(; expected "always", "first" or "never")");
            m.prepend = s == "always"  ? MetaspaceStep::Prepend::always
                        : s == "first" ? MetaspaceStep::Prepend::first
                                       : MetaspaceStep::Prepend::never;
        } else {  // files before prepend_scheme
            Result<bool> prefix_space = r.boolean(p, "add_prefix_space", path, true);
            if (!prefix_space) return prefix_space.error();
            m.prepend = *prefix_space ? MetaspaceStep::Prepend::always : MetaspaceStep::Prepend::never;
        }
        out.metaspace = std::move(m);
    } else {
        return r.fail(path + ".type " + json_quoted(*type) +
                      " is not supported (ByteLevel, Split, Digits, WhitespaceSplit, Metaspace, Sequence)");
    }
    return ok_status();
}

// The "single" template of a TemplateProcessing: the tokens before and after $A.
Status read_template(const Reader& r, const json& p, const std::string& path, const Vocab& vocab, TokenizerJson& out) {
    const json* single = Reader::find(p, "single");
    const json* specials = Reader::find(p, "special_tokens");
    if (single == nullptr || !single->is_array()) return r.fail(path + ".single is not a JSON array");
    bool seen_text = false;
    for (size_t i = 0; i < single->size(); ++i) {
        const json& piece = (*single)[i];
        const std::string at = path + ".single[" + std::to_string(i) + "]";
        if (piece.is_object() && piece.contains("Sequence") && !seen_text) {
            seen_text = true;
            continue;
        }
        const json* special = piece.is_object() ? Reader::find(piece, "SpecialToken") : nullptr;
        const json* name = special && special->is_object() ? Reader::find(*special, "id") : nullptr;
        if (name == nullptr || !name->is_string())
            return r.fail(at + " is " + shown(piece) + R"(; expected one {"Sequence": ...} and {"SpecialToken": ...})");
        const json* entry =
            specials && specials->is_object() ? Reader::find(*specials, name->get<std::string>().c_str()) : nullptr;
        const json* ids = entry && entry->is_object() ? Reader::find(*entry, "ids") : nullptr;
        const json* tokens = entry && entry->is_object() ? Reader::find(*entry, "tokens") : nullptr;
        if (!ids || !tokens || !ids->is_array() || !tokens->is_array() || ids->size() != tokens->size())
            return r.fail(path + ".special_tokens[" + json_quoted(name->get<std::string>()) +
                          "] needs lists \"ids\" and \"tokens\" of one length");
        for (size_t k = 0; k < ids->size(); ++k) {
            Result<int> id = r.index(
                (*ids)[k],
                path + ".special_tokens[" + json_quoted(name->get<std::string>()) + "].ids[" + std::to_string(k) + "]",
                static_cast<size_t>(vocab.size()));
            if (!id) return id.error();
            if (!(*tokens)[k].is_string()) return r.fail(path + ".special_tokens: a token is not a string");
            (seen_text ? out.after_text : out.before_text).push_back({(*tokens)[k].get<std::string>(), *id});
        }
    }
    if (!seen_text) return r.fail(path + R"(.single has no {"Sequence": {"id": "A"}})");
    return ok_status();
}

Status read_post_processor(const Reader& r, const json& p, const std::string& path, const Vocab& vocab,
                           TokenizerJson& out) {
    Result<std::string> type = r.type(p, path);
    if (!type) return type.error();
    if (*type == "Sequence") {
        const json* list = Reader::find(p, "processors");
        if (list == nullptr || !list->is_array()) return r.fail(path + ".processors is not a JSON array");
        for (size_t i = 0; i < list->size(); ++i)
            if (Status s =
                    read_post_processor(r, (*list)[i], path + ".processors[" + std::to_string(i) + "]", vocab, out);
                !s)
                return s;
        return ok_status();
    }
    if (*type == "ByteLevel") return ok_status();  // only moves offsets
    if (*type == "TemplateProcessing") {
        if (!out.before_text.empty() || !out.after_text.empty()) return r.fail(path + ": a second TemplateProcessing");
        return read_template(r, p, path, vocab, out);
    }
    return r.fail(path + ".type " + json_quoted(*type) + " is not supported (TemplateProcessing, ByteLevel, Sequence)");
}

Status read_decoder(const Reader& r, const json& d, const std::string& path, std::vector<DecoderStep>& out) {
    Result<std::string> type = r.type(d, path);
    if (!type) return type.error();
    if (*type == "Sequence") {
        const json* list = Reader::find(d, "decoders");
        if (list == nullptr || !list->is_array()) return r.fail(path + ".decoders is not a JSON array");
        for (size_t i = 0; i < list->size(); ++i)
            if (Status s = read_decoder(r, (*list)[i], path + ".decoders[" + std::to_string(i) + "]", out); !s)
                return s;
        return ok_status();
    }
    DecoderStep step{DecoderStep::Kind::fuse, {}, {}, 0, 0};
    if (*type == "ByteLevel") {
        step.kind = DecoderStep::Kind::byte_level;
    } else if (*type == "ByteFallback") {
        step.kind = DecoderStep::Kind::byte_fallback;
    } else if (*type == "Fuse") {
        step.kind = DecoderStep::Kind::fuse;
    } else if (*type == "Replace") {
        std::vector<NormalizerStep> as_normalizer;  // the same fields as the Replace normalizer
        if (Status s = read_normalizer(r, d, path, as_normalizer); !s) return s;
        step = {DecoderStep::Kind::replace, as_normalizer[0].pattern, as_normalizer[0].content, 0, 0};
    } else if (*type == "Strip") {
        Result<std::string> content = r.string(d, "content", path);
        if (!content) return content.error();
        if (!is_valid_utf8(*content) || count_code_points(*content) != 1)
            return r.fail(path + ".content " + json_quoted(*content) + " is not one character");
        const json* start = Reader::find(d, "start");
        const json* stop = Reader::find(d, "stop");
        Result<int> n_start = r.index(start ? *start : json(0), path + ".start", 1 << 20);
        Result<int> n_stop = r.index(stop ? *stop : json(0), path + ".stop", 1 << 20);
        if (!n_start) return n_start.error();
        if (!n_stop) return n_stop.error();
        step = {DecoderStep::Kind::strip, {}, std::move(*content), *n_start, *n_stop};
    } else if (*type == "Metaspace") {
        Result<std::string> replacement = r.string(d, "replacement", path);
        if (!replacement) return replacement.error();
        if (!is_valid_utf8(*replacement) || count_code_points(*replacement) != 1)
            return r.fail(path + ".replacement " + json_quoted(*replacement) + " is not one character");
        bool prepends = true;
        if (const json* scheme = Reader::find(d, "prepend_scheme")) {
            const std::string s = scheme->is_string() ? scheme->get<std::string>() : "";
            if (s != "always" && s != "first" && s != "never")
                return r.fail(path + ".prepend_scheme is " + shown(*scheme) +
                              R"(; expected "always", "first" or "never")");
            prepends = s != "never";
        } else {
            Result<bool> prefix_space = r.boolean(d, "add_prefix_space", path, true);
            if (!prefix_space) return prefix_space.error();
            prepends = *prefix_space;
        }
        step = {DecoderStep::Kind::metaspace, {}, std::move(*replacement), prepends ? 1 : 0, 0};
    } else {
        return r.fail(path + ".type " + json_quoted(*type) +
                      " is not supported (ByteLevel, Replace, ByteFallback, Fuse, Strip, Metaspace, Sequence)");
    }
    out.push_back(std::move(step));
    return ok_status();
}

// The token each byte starts as, which must be in the vocabulary: its byte-level symbol, or <0xXX>.
Status read_byte_ids(const Reader& r, TokenizerJson& t) {
    const char* hex = "0123456789ABCDEF";
    for (int b = 0; b < 256; ++b) {
        std::string token;
        if (t.layout == BpeLayout::byte_level) {
            append_utf8(byte_to_symbol(static_cast<uint8_t>(b)), token);
        } else {
            token = std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">";
        }
        const std::optional<int> id = t.vocab.find(token);
        if (!id)
            return r.fail(std::string("model.vocab has no token for byte 0x") + hex[b >> 4] + hex[b & 15] + " (" +
                          json_quoted(token) + "); " +
                          (t.layout == BpeLayout::byte_level ? "byte-level BPE" : "byte fallback") + " needs all 256");
        t.byte_ids[static_cast<size_t>(b)] = *id;
    }
    return ok_status();
}

// A Unigram model: model.vocab [[piece, score], ...] (ids in order), model.unk_id, model.byte_fallback.
Status read_unigram(const Reader& r, const json& m, TokenizerJson& out) {
    const json* list = Reader::find(m, "vocab");
    if (list == nullptr || !list->is_array()) return r.fail("model.vocab is not a JSON array");
    std::vector<UnigramPiece> pieces;
    std::vector<ModelToken> tokens;
    for (size_t i = 0; i < list->size(); ++i) {
        const json& entry = (*list)[i];
        if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() || !entry[1].is_number())
            return r.fail("model.vocab[" + std::to_string(i) + "] is " + shown(entry) + R"(; expected ["piece", score])");
        pieces.push_back({entry[0].get<std::string>(), entry[1].get<double>()});
        tokens.push_back({pieces.back().piece, static_cast<int>(i)});
    }
    const json* unk = Reader::find(m, "unk_id");
    if (unk == nullptr) return r.fail("model.unk_id is null; a Unigram model without an unknown piece is not supported");
    Result<int> unk_id = r.index(*unk, "model.unk_id", std::max<size_t>(pieces.size(), 1));
    Result<bool> byte_fallback = r.boolean(m, "byte_fallback", "model", false);
    if (!unk_id) return unk_id.error();
    if (!byte_fallback) return byte_fallback.error();

    Result<Vocab> table = read_vocab(r, tokens, out.added_tokens);
    if (!table) return table.error();
    out.vocab = std::move(*table);
    std::array<int, 256> byte_ids{};  // <0xXX>'s id, or -1: the library then makes the text unknown
    const char* hex = "0123456789ABCDEF";
    for (int b = 0; b < 256; ++b)
        byte_ids[static_cast<size_t>(b)] =
            out.vocab.find(std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">").value_or(-1);
    Result<UnigramModel> model = UnigramModel::build(std::move(pieces), *unk_id, *byte_fallback, byte_ids);
    if (!model) return r.fail("model: " + model.error().message);
    out.unigram = std::make_shared<const UnigramModel>(std::move(*model));
    return ok_status();
}

// Everything after the model: normalizer, pre-tokenizer, post-processor, decoder.
Result<TokenizerJson> read_pipeline(const Reader& r, const json& doc, TokenizerJson out, bool byte_fallback) {
    if (const json* n = Reader::find(doc, "normalizer"))
        if (Status s = read_normalizer(r, *n, "normalizer", out.normalizer); !s) return s.error();
    bool byte_level = false;
    if (const json* p = Reader::find(doc, "pre_tokenizer"))
        if (Status s = read_pre_tokenizer(r, *p, "pre_tokenizer", out, byte_level); !s) return s.error();
    if (out.whitespace_split && !out.metaspace && !out.splits.empty())
        return r.fail("pre_tokenizer: WhitespaceSplit is supported alone or before Metaspace");
    if (byte_level && out.metaspace) return r.fail("pre_tokenizer: both Metaspace and ByteLevel");
    if (out.unigram) {
        if (byte_level) return r.fail("pre_tokenizer: ByteLevel with a Unigram model is not supported");
    } else {
        if (!byte_level && !byte_fallback)
            return r.fail(
                "neither a ByteLevel pre_tokenizer nor model.byte_fallback true: only byte-level BPE and BPE "
                "with byte fallback are supported");
        out.layout = byte_level ? BpeLayout::byte_level : BpeLayout::byte_fallback;
        if (Status s = read_byte_ids(r, out); !s) return s.error();
    }

    if (const json* p = Reader::find(doc, "post_processor"))
        if (Status s = read_post_processor(r, *p, "post_processor", out.vocab, out); !s) return s.error();
    const json* decoder = Reader::find(doc, "decoder");
    if (decoder == nullptr)
        return r.fail("decoder is null; expected ByteLevel, Metaspace, or Replace, ByteFallback, Fuse, Strip");
    if (Status s = read_decoder(r, *decoder, "decoder", out.decoder); !s) return s.error();
    return out;
}

Result<TokenizerJson> read(const Reader& r, const json& doc) {
    if (!doc.is_object()) return r.fail(std::string("expected a JSON object, got ") + doc.type_name());
    TokenizerJson out;
    Result<const json*> model = r.object(doc, "model", "");
    if (!model) return model.error();
    const json& m = **model;
    Result<std::string> type = r.string(m, "type", "model");
    if (!type) return type.error();
    if (*type == "Unigram") {
        Result<std::vector<JsonAddedToken>> added = read_added_tokens(r, doc);
        if (!added) return added.error();
        out.added_tokens = std::move(*added);
        if (Status s = read_unigram(r, m, out); !s) return s.error();
        return read_pipeline(r, doc, std::move(out), false);
    }
    if (*type != "BPE")
        return r.fail("model.type " + json_quoted(*type) + " is not supported (only \"BPE\" and \"Unigram\")");
    if (const json* dropout = Reader::find(m, "dropout"); dropout && !(dropout->is_number() && *dropout == 0))
        return r.fail("model.dropout " + shown(*dropout) + " is not supported (only null)");
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        if (const json* affix = Reader::find(m, key);
            affix && !(affix->is_string() && affix->get<std::string>().empty()))
            return r.fail(std::string("model.") + key + " " + shown(*affix) + " is not supported (only null)");
    }
    Result<bool> ignore_merges = r.boolean(m, "ignore_merges", "model", false);
    Result<bool> byte_fallback = r.boolean(m, "byte_fallback", "model", false);
    if (!ignore_merges) return ignore_merges.error();
    if (!byte_fallback) return byte_fallback.error();
    out.ignore_merges = *ignore_merges;

    Result<std::vector<JsonAddedToken>> added = read_added_tokens(r, doc);
    if (!added) return added.error();
    out.added_tokens = std::move(*added);
    Result<const json*> vocab = r.object(m, "vocab", "model");
    if (!vocab) return vocab.error();
    Result<std::vector<ModelToken>> entries =
        bpe_vocab_entries(r, **vocab, (*vocab)->size() + out.added_tokens.size());
    if (!entries) return entries.error();
    Result<Vocab> table = read_vocab(r, *entries, out.added_tokens);
    if (!table) return table.error();
    out.vocab = std::move(*table);

    const json* merges = Reader::find(m, "merges");
    if (merges == nullptr || !merges->is_array()) return r.fail("model.merges is not a JSON array");
    for (size_t i = 0; i < merges->size(); ++i)
        if (Status s = read_merge(r, (*merges)[i], "model.merges[" + std::to_string(i) + "]", out.vocab, out.merges);
            !s)
            return s.error();
    return read_pipeline(r, doc, std::move(out), *byte_fallback);
}

}  // namespace

Result<TokenizerJson> read_tokenizer_json(const TokenizerFile& file) {
    const Reader r(file.name);
    try {
        return read(r, json::parse(file.text));
    } catch (const json::exception& e) {
        return r.fail(e.what());  // the parser's message names the line and column
    }
}

}  // namespace attnlab
