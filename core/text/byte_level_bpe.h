// GPT-2's tokenizer: byte-level BPE from vocab.json and merges.txt, as Hugging Face's GPT-2
// tokenizer runs it. Text is cut at <|endoftext|>, then into words by GPT-2's pattern
// (text/gpt2_pretokenizer.h); each word's UTF-8 bytes start as one symbol per byte and merge
// by rank (text/bpe_merge.h). Any text encodes: there is no unknown token.
//
// Where it can differ from the reference: \p{L} and \p{N} come from Unicode 14.0 (Python 3.11's
// unicodedata), while Debian's `regex` module knows Unicode 15.0: the 4,388 code points new in
// 15.0 (Kawi, CJK extension H, ...) are neither letters nor numbers here. vocab.json must hold
// all 256 byte symbols, where Hugging Face would silently drop a byte that has none.
#pragma once

#include "result.h"
#include "text/subword_tokenizer.h"

#include <memory>
#include <optional>

namespace attnlab {

class BpeWordCache;

class ByteLevelBpeTokenizer final : public SubwordTokenizer {
public:
    // vocab.json must hold the 256 byte symbols; see text/bpe_files.h for both formats.
    // Errors are one line naming the file (and for merges.txt, the line).
    static Result<ByteLevelBpeTokenizer> from_files(const TokenizerFile& vocab_json, const TokenizerFile& merges_txt);

    // No tokens are added around the text; "<|endoftext|>" in it is that one token.
    Result<SubwordEncoding> encode(std::string_view text) const override;
    // The tokens' bytes joined, each invalid UTF-8 part replaced by U+FFFD; skip_special drops
    // <|endoftext|>.
    std::string decode(const std::vector<int>& ids, bool skip_special) const override;
    const Vocab& vocab() const override;
    const char* name() const override { return "byte-level BPE"; }

    // <|endoftext|>, GPT-2's one special token (50256 in GPT-2 itself), if vocab.json has it.
    std::optional<int> end_of_text_id() const;

private:
    struct Tables;
    explicit ByteLevelBpeTokenizer(std::shared_ptr<const Tables> tables);

    std::shared_ptr<const Tables> tables_;  // immutable, shared by copies
    std::shared_ptr<BpeWordCache> cache_;   // shared by copies, locks itself
};

}  // namespace attnlab
