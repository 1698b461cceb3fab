// GPT-2's two tokenizer files: vocab.json, a JSON object of token -> id, and merges.txt, an
// optional "#version" line and then one merge "left right" per line, the first merging first.
// Tokens and merge symbols are written in the byte-level alphabet (text/byte_level.h).
#pragma once

#include "result.h"
#include "text/bpe_merge.h"
#include "text/subword_tokenizer.h"
#include "text/vocab.h"

#include <string_view>

namespace attnlab {

// The ids must be the integers 0..V-1, each used once. Errors start with the file's name.
Result<Vocab> parse_bpe_vocab(const TokenizerFile& vocab_json);

// Both symbols of every merge and their concatenation must be tokens of `vocab`, which was read
// from the file named `vocab_name`. Errors start with the file's name and line.
Result<BpeMergeTable> parse_bpe_merges(const TokenizerFile& merges_txt, const Vocab& vocab,
                                       std::string_view vocab_name);

}  // namespace attnlab
