// Training data from a file, as one stream of token ids: a file of ids, or a text file read through
// the model's own tokenizer. train/token_windows.h cuts the stream into windows and batches.
#pragma once

#include "model.h"
#include "result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// A file of token ids:
//   - an id is a run of the ASCII digits 0-9 with a value 0 … 2147483647 (INT_MAX); leading zeros are
//     allowed ("007" is 7); no sign, decimal point or exponent;
//   - ids are separated by any run of ASCII white space (space, \t, \n, \v, \f, \r) and commas, so
//     "1 2 3\n", "1,2,3" and "1, 2,\n3," all read as 1 2 3 (commas before the first id, after the last
//     or two in a row are allowed);
//   - the whole list may sit in one pair of square brackets, as a JSON array "[1, 2, 3]": '[' is then the
//     first character that is not white space, ']' the last, and neither may appear anywhere else;
//   - there is at least one id.
// Errors are one line: `source`, the line and column (1-based, the column counted in bytes) and the bad
// text, e.g.  ids.txt line 2, column 4: "1.5" is not a token id (ids are digits 0-9, at most 2147483647)
Result<std::vector<int>> parse_token_ids(std::string_view text, std::string_view source);

// parse_token_ids over the file at `path`, naming it as io::display_path shows it.
Result<std::vector<int>> read_token_ids(const std::string& path);

// An error naming the first id ≥ vocab_size and its position in the stream (0-based), if there is one.
Status check_ids_in_vocab(const std::vector<int>& ids, int vocab_size);

struct TextIds {
    std::vector<int> ids;
    int64_t n_unknown = 0;  // ids that are the unknown token because the vocabulary has no piece for that text
};

// Text encoded by the tokenizer of the side the model predicts (the target side; an encoder-only
// model's source side): its subword tokenizer (GPT-2's byte-level BPE, a tokenizer.json, SentencePiece,
// WordPiece), else model.tokenizer over its vocabulary (word or char; a character tokenizer keeps each
// "\n" as a token, the word tokenizer treats it as white space).
// - The result is one stream: tokens that a tokenizer adds to every text it encodes and that no text in
//   the file spells (BERT's [CLS] and [SEP], Llama's <s>, Marian's </s>, a lone "▁" prepended by the
//   normalizer) are left out. A special token the file spells itself ("<|endoftext|>") is kept.
// - Long text is encoded in pieces of about 64 KiB (kTextPieceBytes) so that a tokenizer without a
//   pre-tokenizer stays fast. A piece ends after a "\n" that is followed by a byte that is not ASCII white
//   space, where every pre-tokenizer here cuts words anyway (a tokenizer that starts each text with "▁",
//   as Llama 2's does, reads the word there as if after a space); text without such a place is one piece.
// Errors: invalid UTF-8 (naming `source`, the line and the byte offset within that line), or a model
// without a vocabulary on that side.
Result<TextIds> encode_text_ids(std::string_view text, std::string_view source, const Model& model);
inline constexpr int64_t kTextPieceBytes = 64 * 1024;

// encode_text_ids over the UTF-8 text file at `path`.
Result<TextIds> read_text_ids(const std::string& path, const Model& model);

}  // namespace attnlab
