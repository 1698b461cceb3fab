// Vocab: the id <-> token table of a model (V tokens), with O(1) average lookup by text.
// Built from a token list, the model file's JSON array, or a one-token-per-line .txt.
#pragma once

#include "result.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attnlab {

inline constexpr const char* kPadToken = "<pad>";
inline constexpr const char* kSosToken = "<sos>";
inline constexpr const char* kEosToken = "<eos>";
inline constexpr const char* kUnkToken = "<unk>";

class Vocab {
public:
    // Errors: empty list, empty token, invalid UTF-8, duplicate token (names it and both ids).
    static Result<Vocab> from_tokens(std::vector<std::string> tokens);
    // A JSON array of strings, e.g. the model file's __metadata__["src_vocab"].
    static Result<Vocab> from_json(std::string_view json_array_text);
    // One token per line (\n or \r\n), taken verbatim (a line " " is the space token);
    // empty lines and a leading UTF-8 byte-order mark are skipped.
    static Result<Vocab> from_lines(std::string_view text);

    // Compact JSON array that from_json reads back exactly; UTF-8 is kept, not \u-escaped.
    std::string to_json() const;

    int size() const { return static_cast<int>(tokens_.size()); }
    const std::string& token(int id) const;  // asserts 0 <= id < size()
    std::optional<int> find(std::string_view token) const;
    const std::vector<std::string>& tokens() const { return tokens_; }

private:
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    std::vector<std::string> tokens_;                                        // id -> token
    std::unordered_map<std::string, int, StringHash, std::equal_to<>> ids_;  // token -> id
};

// The token as the vocabulary writes it, or "#id" without a vocabulary or outside it.
std::string token_or_id(const std::optional<Vocab>& vocab, int id);

// <pad> <sos> <eos> <unk> (ids 0..3), then printable ASCII 32..126, space included:
// 99 tokens. Used by random models that ship no vocabulary.
Vocab default_char_vocab();

}  // namespace attnlab
