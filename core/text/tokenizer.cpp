// Word and character tokenizers over a Vocab, and their inverse.
#include "text/tokenizer.h"

#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <cassert>
#include <optional>

namespace attnlab {

namespace {

constexpr std::string_view kIdeographicSpace = "\xE3\x80\x80";  // U+3000
constexpr std::string_view kPunctuation = ".,!?;:\"()";

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

bool has_ascii_upper(std::string_view s) {
    for (char c : s) {
        if (c >= 'A' && c <= 'Z') return true;
    }
    return false;
}

// Exact match, then the ASCII-lower-cased form.
std::optional<int> find_word(const Vocab& vocab, std::string_view piece) {
    if (std::optional<int> id = vocab.find(piece)) return id;
    if (!has_ascii_upper(piece)) return std::nullopt;
    std::string lower(piece);
    for (char& c : lower) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return vocab.find(lower);
}

void append_token(Tokenized& out, std::string_view piece, std::optional<int> id, int unk_id) {
    if (!id) out.unknown.push_back(static_cast<int>(out.ids.size()));
    out.ids.push_back(id.value_or(unk_id));
    out.pieces.emplace_back(piece);
}

// Valid UTF-8 only: then every ASCII byte is a whole character and E3 80 80 can only be U+3000,
// so a byte walk never cuts a multi-byte character.
Tokenized tokenize_words(const Vocab& vocab, std::string_view text, int unk_id) {
    Tokenized out;
    size_t word_begin = 0;
    const auto flush_word = [&](size_t end) {
        if (end > word_begin) {
            const std::string_view word = text.substr(word_begin, end - word_begin);
            append_token(out, word, find_word(vocab, word), unk_id);
        }
    };
    for (size_t i = 0; i < text.size();) {
        size_t separator = 0;  // bytes of whitespace at i
        if (is_ascii_space(text[i]))
            separator = 1;
        else if (text.substr(i, kIdeographicSpace.size()) == kIdeographicSpace)
            separator = 3;

        if (separator > 0) {
            flush_word(i);
            i += separator;
            word_begin = i;
        } else if (kPunctuation.find(text[i]) != std::string_view::npos) {
            flush_word(i);
            const std::string_view mark = text.substr(i, 1);
            append_token(out, mark, vocab.find(mark), unk_id);
            i += 1;
            word_begin = i;
        } else {
            i += 1;
        }
    }
    flush_word(text.size());
    return out;
}

}  // namespace

std::string to_string(TokenizerKind kind) { return kind == TokenizerKind::word ? "word" : "char"; }

Result<TokenizerKind> tokenizer_kind_from_string(std::string_view name) {
    if (name == "word") return TokenizerKind::word;
    if (name == "char") return TokenizerKind::character;
    // Quoted as JSON, so a name holding a newline keeps the message one line.
    const std::string quoted =
        nlohmann::json(std::string(name)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return Error{"unknown tokenizer " + quoted + " (expected \"word\" or \"char\")"};
}

Result<Tokenized> tokenize(const Vocab& vocab, TokenizerKind kind, std::string_view text, int unk_id) {
    assert(unk_id >= 0 && unk_id < vocab.size());
    if (kind == TokenizerKind::word) {
        if (!is_valid_utf8(text)) return split_code_points(text).error();  // names the offset
        return tokenize_words(vocab, text, unk_id);
    }
    Result<std::vector<std::string>> chars = split_code_points(text);
    if (!chars) return chars.error();
    Tokenized out;
    out.ids.reserve(chars->size());
    out.pieces.reserve(chars->size());
    for (const std::string& c : *chars) append_token(out, c, vocab.find(c), unk_id);
    return out;
}

std::string detokenize(const Vocab& vocab, TokenizerKind kind, const std::vector<int>& ids, bool skip_special) {
    std::string out;
    bool first = true;
    for (int id : ids) {
        const bool known = id >= 0 && id < vocab.size();
        if (known && skip_special) {
            const std::string& t = vocab.token(id);
            if (t == kPadToken || t == kSosToken || t == kEosToken) continue;
        }
        if (kind == TokenizerKind::word && !first) out += ' ';
        first = false;
        out += known ? vocab.token(id) : "<?" + std::to_string(id) + ">";
    }
    return out;
}

}  // namespace attnlab
