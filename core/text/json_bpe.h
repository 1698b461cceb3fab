// A BPE or Unigram tokenizer from Hugging Face's tokenizer.json (text/tokenizer_json.h says which layouts), run
// as Hugging Face's tokenizers library runs it:
//   1. added tokens (<|begin_of_text|>, <s>, <|im_start|>, ...) are cut out of the raw text, each
//      taking the white space its lstrip/rstrip asks for;
//   2. each piece between them is normalized (NFC, or "▁" prepended and spaces made "▁"), and cut at
//      the added tokens marked "normalized";
//   3. the pre-tokenizer cuts words (Llama 3's, Qwen2's or GPT-2's pattern, digits, Metaspace);
//   4. each word starts as its bytes (byte-level) or its characters, a character the vocabulary
//      lacks as its <0xXX> bytes (byte fallback), and merges by rank (text/bpe_merge.h); with
//      ignore_merges a word that is itself a token stays whole;
//      a Unigram model (T5) segments each word by its pieces' scores instead (text/unigram_model.h), after
//      a Precompiled normalizer (text/precompiled_charsmap.h) and WhitespaceSplit + Metaspace;
//   5. the post-processor's template adds its tokens (Llama 3's <|begin_of_text|>, Llama 2's <s>).
// Decoding runs the file's decoder steps over the tokens' strings.
//
// Checked against Hugging Face's tokenizers 0.23.2 (tests/fixtures/tokenizers/make_json_bpe_fixtures.mjs,
// make_unigram_fixtures.mjs).
// Where it can differ: \p{L}, \p{N}, white space and NFC come from Unicode 14.0 (text/unicode_category.h),
// the library's from its own crates' versions; merges whose ranks contradict the order they could
// be made in (a merge of a token ranked before the merge that makes it: trained files never have
// one) are applied pass by pass, as GPT-2 does, where the library applies the lower rank at once.
#pragma once

#include "result.h"
#include "text/subword_tokenizer.h"

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace attnlab {

class BpeWordCache;
struct BpeSymbol;
struct TokenizerJson;

class JsonBpeTokenizer final : public SubwordTokenizer {
public:
    // Errors are one line naming the file and the field (text/tokenizer_json.h).
    static Result<JsonBpeTokenizer> from_json(const TokenizerFile& tokenizer_json);

    // The template's tokens are added around the text (<|begin_of_text|> first for Llama 3, <s> for
    // Llama 2, </s> last for T5); added tokens the text spells are those tokens. A Unigram model's unknown
    // tokens are listed in tokens.unknown.
    Result<SubwordEncoding> encode(std::string_view text) const override;
    // The file's decoder over the tokens: bytes joined (byte-level), or <0xXX> runs made bytes, "▁" made
    // spaces and the leading space stripped (byte fallback); invalid UTF-8 becomes U+FFFD. skip_special
    // drops the added tokens marked special.
    std::string decode(const std::vector<int>& ids, bool skip_special) const override;
    const Vocab& vocab() const override;
    // "byte-level BPE (tokenizer.json)", "BPE with byte fallback (tokenizer.json)", "Unigram (tokenizer.json)"
    const char* name() const override;

    // The first token the template puts before the text (the BOS token), if it puts any.
    std::optional<int> bos_id() const;

private:
    struct Tables;
    explicit JsonBpeTokenizer(std::shared_ptr<const Tables> tables);

    std::vector<BpeSymbol> word_symbols(std::string_view word) const;

    std::shared_ptr<const Tables> tables_;  // immutable, shared by copies
    std::shared_ptr<BpeWordCache> cache_;   // shared by copies, locks itself
};

}  // namespace attnlab
