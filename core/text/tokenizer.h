// Tokenizers that turn a sentence into vocabulary ids and back: word-level (whitespace and
// ASCII punctuation split) or character-level (one token per Unicode code point).
#pragma once

#include "result.h"
#include "text/vocab.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

enum class TokenizerKind { word, character };

std::string to_string(TokenizerKind kind);                                // "word" | "char"
Result<TokenizerKind> tokenizer_kind_from_string(std::string_view name);  // "word" | "char"

struct Tokenized {
    std::vector<int> ids;
    std::vector<std::string> pieces;  // the text of each token as the user wrote it
    std::vector<int> unknown;         // indices into ids/pieces that became unk_id
};

// word: split on runs of ASCII whitespace and U+3000; each of . , ! ? ; : " ( ) is a token of
//       its own. A piece is looked up as written, then ASCII-lower-cased ("I" finds "i").
// character: one token per code point, spaces included; looked up exactly.
// Pieces not found become unk_id (asserted to be a valid id). Errors only on invalid UTF-8;
// empty or all-whitespace text gives no tokens.
Result<Tokenized> tokenize(const Vocab& vocab, TokenizerKind kind, std::string_view text, int unk_id);

// word: tokens joined by single spaces; character: concatenated. skip_special drops
// <pad>, <sos> and <eos>; ids outside the vocabulary render as "<?id>".
std::string detokenize(const Vocab& vocab, TokenizerKind kind, const std::vector<int>& ids, bool skip_special);

}  // namespace attnlab
