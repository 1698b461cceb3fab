// The precompiled normalization rules of a SentencePiece model (ModelProto's normalizer_spec and
// denormalizer_spec, field precompiled_charsmap), checked before libsentencepiece runs them: the library
// walks the rules' double-array trie and reads their replacement strings without bounds checks, so a broken
// .model file would make it read outside the file (found by tests/fuzz/fuzz_sentencepiece).
//   charsmap = [uint32 little-endian n][n bytes: the trie, 4-byte units][replacement strings, each NUL-ended]
#pragma once

#include "result.h"

#include <string>
#include <string_view>

namespace attnlab {

// `serialized_model`: a ModelProto's bytes (as the library parsed them). An error is one line naming the
// field, e.g. "normalizer_spec.precompiled_charsmap: trie unit 126 leads outside the trie".
Status check_precompiled_charsmaps(std::string_view serialized_model);

// One charsmap blob (empty: no rules); `field` starts the error, e.g. "normalizer" ->
// "normalizer.precompiled_charsmap: its trie runs past its end".
Status check_precompiled_charsmap(std::string_view blob, const std::string& field);

}  // namespace attnlab
