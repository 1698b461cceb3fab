// Reading a training stream: the token-ids format (see token_file.h) and text through the model's tokenizer.
#include "train/token_file.h"

#include "io/file_bytes.h"
#include "text/utf8.h"

#include <algorithm>
#include <cassert>
#include <climits>

namespace attnlab {

namespace {

bool is_white(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool is_separator(char c) { return is_white(c) || c == ','; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Where byte `at` of `text` sits: "line L, column C", both 1-based, the column in bytes.
std::string position(std::string_view text, size_t at) {
    int64_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < at; ++i)
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    return "line " + std::to_string(line) + ", column " + std::to_string(at - line_start + 1);
}

// The text from byte `at` up to the next separator (at most about 24 bytes, cut at a code point), quoted
// and with control characters and invalid bytes escaped, so a message stays one line.
std::string bad_text(std::string_view text, size_t at) {
    constexpr size_t kMaxBytes = 24;
    size_t end = at;
    while (end < text.size() && !is_separator(text[end]) && end - at < kMaxBytes) ++end;
    const bool cut = end < text.size() && !is_separator(text[end]);
    if (cut)  // back to the start of a code point: continuation bytes are 10xxxxxx
        while (end > at + 1 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return "\"" + io::display_path(text.substr(at, end - at)) + (cut ? "…" : "") + "\"";
}

// The tokenizer of the side the model predicts: its vocabulary, and its subword tokenizer or null.
struct SideTokenizer {
    const std::optional<Vocab>& vocab;
    const SubwordTokenizer* subword;
};

SideTokenizer predicted_side(const Model& model) {
    if (model.config.arch == Arch::encoder_only) return {model.src_vocab, model.subword_tokenizer.get()};
    const auto& target = model.target_subword_tokenizer ? model.target_subword_tokenizer : model.subword_tokenizer;
    return {model.tgt_vocab, target.get()};
}

// Appends the ids of `piece` (valid UTF-8) to `out`, leaving out the tokens the tokenizer adds (empty spans).
Status append_piece_ids(std::string_view piece, const SideTokenizer& side, const Model& model, TextIds& out) {
    if (!side.subword) {
        Result<Tokenized> t = tokenize(*side.vocab, model.tokenizer, piece, model.config.unk_id);
        if (!t) return t.error();
        out.ids.insert(out.ids.end(), t->ids.begin(), t->ids.end());
        out.n_unknown += static_cast<int64_t>(t->unknown.size());
        return ok_status();
    }
    Result<SubwordEncoding> e = side.subword->encode(piece);
    if (!e) return e.error();
    std::vector<char> unknown(e->tokens.ids.size(), 0);
    for (int u : e->tokens.unknown) unknown[static_cast<size_t>(u)] = 1;
    for (size_t i = 0; i < e->tokens.ids.size(); ++i) {
        if (e->spans[i].begin == e->spans[i].end) continue;
        out.ids.push_back(e->tokens.ids[i]);
        out.n_unknown += unknown[i];
    }
    return ok_status();
}

// Where the piece that starts at `begin` ends: kTextPieceBytes on, just after a "\n" that is followed by a byte
// that is not white space; the end of the text when there is no such place.
size_t piece_end(std::string_view text, size_t begin) {
    if (text.size() - begin <= static_cast<size_t>(kTextPieceBytes)) return text.size();
    for (size_t i = begin + static_cast<size_t>(kTextPieceBytes) - 1; i + 1 < text.size(); ++i)
        if (text[i] == '\n' && !is_white(text[i + 1])) return i + 1;
    return text.size();
}

// The first line holding invalid UTF-8, with the byte offset in it; `text` is not valid UTF-8.
Error utf8_error(std::string_view text, std::string_view source) {
    int64_t line = 1;
    for (size_t start = 0;; ++line) {
        const size_t newline = text.find('\n', start);
        const std::string_view l = text.substr(start, newline == std::string_view::npos ? newline : newline - start);
        if (!is_valid_utf8(l))
            return Error{std::string(source) + " line " + std::to_string(line) + ": " +
                         split_code_points(l).error().message};
        assert(newline != std::string_view::npos);  // a "\n" byte is never inside a sequence: some line is bad
        start = newline + 1;
    }
}

Error error_at(std::string_view source, std::string_view text, size_t at, const std::string& what) {
    return Error{std::string(source) + " " + position(text, at) + ": " + what};
}

}  // namespace

Result<std::vector<int>> parse_token_ids(std::string_view text, std::string_view source) {
    // [begin, end): the bytes between the brackets, or all of them.
    size_t begin = 0, end = text.size();
    size_t first = 0, last = text.size();
    while (first < text.size() && is_white(text[first])) ++first;
    while (last > first && is_white(text[last - 1])) --last;
    const bool opens = first < last && text[first] == '[';
    const bool closes = first < last && text[last - 1] == ']' && last - 1 > first;
    if (opens && !closes) return error_at(source, text, first, "'[' has no ']' at the end of the file to close it");
    if (opens) {
        begin = first + 1;
        end = last - 1;
    }

    std::vector<int> ids;
    for (size_t i = begin; i < end;) {
        if (is_separator(text[i])) {
            ++i;
            continue;
        }
        const size_t start = i;
        int64_t value = 0;
        while (i < end && is_digit(text[i])) {
            value = std::min<int64_t>(value * 10 + (text[i] - '0'), int64_t{INT_MAX} + 1);
            ++i;
        }
        if (i == start || (i < end && !is_separator(text[i]))) {
            if (text[i] == '[' || text[i] == ']')
                return error_at(
                    source, text, i,
                    std::string("'") + text[i] + "' may only open the file and close it, around all the ids");
            return error_at(
                source, text, start,
                bad_text(text.substr(0, end), start) + " is not a token id (ids are digits 0-9, at most 2147483647)");
        }
        if (value > INT_MAX)
            return error_at(source, text, start,
                            bad_text(text.substr(0, end), start) + " is above the largest id, 2147483647");
        ids.push_back(static_cast<int>(value));
    }
    if (ids.empty()) return Error{std::string(source) + " holds no token ids"};
    return ids;
}

Result<std::vector<int>> read_token_ids(const std::string& path) {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    return parse_token_ids(text, io::display_path(path));
}

Result<TextIds> encode_text_ids(std::string_view text, std::string_view source, const Model& model) {
    const SideTokenizer side = predicted_side(model);
    if (!side.vocab) return Error{"this model has no vocabulary to read " + std::string(source) + "; give token ids"};
    if (!is_valid_utf8(text)) return utf8_error(text, source);
    TextIds out;
    for (size_t begin = 0; begin < text.size();) {
        const size_t end = piece_end(text, begin);
        if (Status st = append_piece_ids(text.substr(begin, end - begin), side, model, out); !st)
            return Error{std::string(source) + ": " + st.error().message};
        begin = end;
    }
    if (out.ids.empty()) return Error{std::string(source) + " gives no tokens"};
    return out;
}

Result<TextIds> read_text_ids(const std::string& path, const Model& model) {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    return encode_text_ids(text, io::display_path(path), model);
}

Status check_ids_in_vocab(const std::vector<int>& ids, int vocab_size) {
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= vocab_size)
            return Error{"token id " + std::to_string(ids[i]) + " at position " + std::to_string(i) +
                         " is outside the model's vocabulary of " + std::to_string(vocab_size) + " ids (0 … " +
                         std::to_string(vocab_size - 1) + ")"};
    return ok_status();
}

}  // namespace attnlab
