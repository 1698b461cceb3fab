// tokenizer.json's Precompiled normalizer (T5, Flan-T5, mT5, XLM-R): SentencePiece's compiled normalization
// rules, base64 in the file, run as Hugging Face's tokenizers runs them (normalizers/precompiled.rs):
//   - the text is cut into grapheme clusters (text/grapheme.h);
//   - a cluster shorter than 6 bytes whose start has a rule is replaced whole by the replacement of the
//     shortest rule matching at its start (so "ｅ" + U+0301 becomes "e" when "ｅ" has a rule: the library's
//     way, kept);
//   - otherwise each character with a rule is replaced by its replacement, the others kept.
//   charsmap = [uint32 little-endian n][n bytes: Darts-clone's double-array trie][replacements, each NUL-ended]
#pragma once

#include "result.h"
#include "text/normalized_text.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

class PrecompiledCharsmap {
public:
    // `base64`: the file's precompiled_charsmap. Errors are one line starting "<field>.precompiled_charsmap: ",
    // without the file's name: not base64, empty, a trie a walk would leave (text/sentencepiece_charsmap.h),
    // or replacements that are not UTF-8.
    static Result<PrecompiledCharsmap> from_base64(std::string_view base64, const std::string& field);

    // The replacement of the shortest rule that `chunk` starts with (a NUL byte ends the search), if any.
    std::optional<std::string_view> transform(std::string_view chunk) const;

private:
    PrecompiledCharsmap(std::string blob, size_t trie_bytes) : blob_(std::move(blob)), trie_bytes_(trie_bytes) {}
    uint32_t unit(size_t index) const;

    std::string blob_;       // the decoded charsmap
    size_t trie_bytes_ = 0;  // n
};

// The rules over `in` (valid UTF-8); each replacement stands for the characters it replaced.
NormalizedText precompiled_normalize(const NormalizedText& in, const PrecompiledCharsmap& charsmap);

}  // namespace attnlab
