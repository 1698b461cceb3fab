// What every subword tokenizer must do with any input, checked by the tokenizer fuzz targets: errors are one
// line of UTF-8 naming their source; an encoding's ids are in range, its pieces are the text at their spans (an
// added token's own text at an empty span), its spans are whole code points in order; decode gives UTF-8 for
// any ids, those outside the vocabulary included.
#pragma once

#include "fuzz_common.h"
#include "result.h"
#include "text/subword_tokenizer.h"
#include "text/utf8.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

inline void check_error(const attnlab::Error& e, std::string_view expected_start) {
    FUZZ_CHECK(is_one_line(e.message), "bad error message: " + e.message);
    FUZZ_CHECK(attnlab::is_valid_utf8(e.message), "error message is not UTF-8");
    FUZZ_CHECK(std::string_view(e.message).starts_with(expected_start), "error does not name its source: " + e.message);
}

inline bool is_code_point_start(std::string_view text, size_t i) {
    return i == text.size() || (static_cast<uint8_t>(text[i]) & 0xC0) != 0x80;
}

// Returns the encoding's ids.
inline std::vector<int> check_encoding(const attnlab::SubwordTokenizer& t, std::string_view text,
                                       const attnlab::SubwordEncoding& e) {
    const attnlab::Tokenized& tokens = e.tokens;
    FUZZ_CHECK(tokens.ids.size() == tokens.pieces.size() && tokens.ids.size() == e.spans.size(), "sizes differ");
    for (size_t i = 0; i < tokens.ids.size(); ++i) {
        const attnlab::TextSpan s = e.spans[i];
        FUZZ_CHECK(tokens.ids[i] >= 0 && tokens.ids[i] < t.vocab().size(), "id out of range at " + std::to_string(i));
        FUZZ_CHECK(s.begin <= s.end && s.end <= text.size(), "span outside the text at " + std::to_string(i));
        FUZZ_CHECK(is_code_point_start(text, s.begin) && is_code_point_start(text, s.end), "span cuts a code point");
        if (i > 0) FUZZ_CHECK(s.begin >= e.spans[i - 1].begin, "spans go backwards at " + std::to_string(i));
        if (s.begin < s.end)
            FUZZ_CHECK(tokens.pieces[i] == text.substr(s.begin, s.end - s.begin), "piece is not the text at its span");
        else
            FUZZ_CHECK(tokens.pieces[i] == t.vocab().token(tokens.ids[i]), "an added token's piece is not the token");
    }
    for (int u : tokens.unknown)
        FUZZ_CHECK(u >= 0 && static_cast<size_t>(u) < tokens.ids.size(), "unknown index out of range");
    std::vector<int> odd = tokens.ids;
    odd.push_back(-1);
    odd.push_back(t.vocab().size());
    FUZZ_CHECK(attnlab::is_valid_utf8(t.decode(odd, false)) && attnlab::is_valid_utf8(t.decode(odd, true)),
               "decode produced invalid UTF-8");
    return tokens.ids;
}

// Encodes `text` under the contract every subword tokenizer keeps: valid UTF-8 encodes (its ids, pieces and spans
// checked by check_encoding), invalid UTF-8 is the one-line "invalid UTF-8" error (nullopt). `what` names the
// tokenizer in a failed check.
template <class Tokenizer>
std::optional<attnlab::SubwordEncoding> encode_checked(const Tokenizer& t, std::string_view text,
                                                       const std::string& what) {
    auto e = t.encode(text);
    if (!e) {
        FUZZ_CHECK(!attnlab::is_valid_utf8(text), what + " encode failed on valid UTF-8: " + e.error().message);
        check_error(e.error(), "invalid UTF-8");
        return std::nullopt;
    }
    FUZZ_CHECK(attnlab::is_valid_utf8(text), what + " encode accepted invalid UTF-8");
    check_encoding(t, text, *e);
    return std::move(*e);
}

// Text for a tokenizer read from fuzzed bytes to encode: punctuation, digits, accents, Hangul, emoji, runs of
// white space and the special tokens the hub's tokenizers spell.
inline constexpr std::string_view kFuzzSampleText =
    "Hello, world! it's 2023 — café 한국어 😀\n\n  <|endoftext|> [MASK] <s> </s> <unk>";
