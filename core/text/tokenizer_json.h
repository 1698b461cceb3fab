// Hugging Face's tokenizer.json, read into a typed record for the BPE and Unigram layouts the hub's models use:
//   byte-level    (GPT-2, Llama 3, Qwen2/2.5/3, SmolLM2): normalizer null or NFC; a ByteLevel
//                 pre-tokenizer, alone (GPT-2's regex) or after Split (Llama 3's or Qwen2's pattern)
//                 or Digits; a ByteLevel decoder
//   byte fallback (Llama 2, TinyLlama, Mistral, Phi-3): model.byte_fallback, normalizer
//                 Prepend("▁") + Replace(" ", "▁") or a Metaspace pre-tokenizer; decoder Replace,
//                 ByteFallback, Fuse, Strip
//   Unigram       (T5, Flan-T5): model.type "Unigram" (text/unigram_model.h); a Precompiled normalizer
//                 (text/precompiled_charsmap.h), alone or followed by Strip and Replace(Regex " {2,}");
//                 WhitespaceSplit then Metaspace, or Metaspace alone; a Metaspace decoder
// Anything else is refused with one line naming the file and the field.
#pragma once

#include "result.h"
#include "text/bpe_merge.h"
#include "text/precompiled_charsmap.h"
#include "text/subword_tokenizer.h"
#include "text/unigram_model.h"
#include "text/vocab.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

enum class BpeLayout {
    byte_level,     // a word's UTF-8 bytes are its first symbols (GPT-2's byte alphabet in the vocabulary)
    byte_fallback,  // a word's characters are; one the vocabulary lacks becomes its bytes <0x00>..<0xFF>
};

// One entry of added_tokens: cut out of the text before anything else runs.
struct JsonAddedToken {
    std::string content;
    int id = 0;
    bool special = false;     // decode(skip_special) drops it
    bool lstrip = false;      // it takes the white space before it
    bool rstrip = false;      // it takes the white space after it
    bool normalized = false;  // matched in the normalized text, not the raw text
};

struct NormalizerStep {
    // collapse_spaces: Replace(Regex " {2,}"), each run of two or more spaces made `content`.
    enum class Kind { nfc, prepend, replace, precompiled, strip, collapse_spaces };
    Kind kind;
    std::string pattern;  // replace: what is replaced
    std::string content;  // prepend: the prefix; replace, collapse_spaces: the replacement
    std::shared_ptr<const PrecompiledCharsmap> charsmap;  // precompiled
    bool strip_left = false, strip_right = false;        // strip: white space at the start, at the end
};

// One way of cutting words, applied to every word the earlier ones made.
enum class WordSplit {
    gpt2,           // GPT-2's pattern (text/gpt2_pretokenizer.h)
    llama3,         // Llama 3's pattern, numbers in threes (text/llama3_pretokenizer.h)
    qwen2,          // Qwen2's: Llama 3's with single numbers
    digits,         // Digits: each run of numbers (\p{N}) a word
    single_digits,  // Digits(individual_digits): each number a word
    bloom,          // BLOOM's: an optional space and a run of anything but white space and . , ! ? … (text/bloom_pretokenizer.h)
};

// The Metaspace pre-tokenizer: spaces become `replacement`, which may also start the text.
struct MetaspaceStep {
    enum class Prepend { always, first, never };  // first: only for the piece at the start of the text
    std::string replacement;                      // "▁"
    Prepend prepend = Prepend::always;
    bool split = true;  // each replacement starts a new word
};

struct DecoderStep {
    // metaspace: `content` (the replacement, "▁") made a space, and dropped from the first token when `start`
    // is 1 (a prepend_scheme other than "never").
    enum class Kind { byte_level, replace, byte_fallback, fuse, strip, metaspace };
    Kind kind;
    std::string pattern;  // replace: what is replaced
    std::string content;  // replace: the replacement; strip: the character stripped; metaspace: the replacement
    int start = 0;        // strip: at most this many `content` at the start of each token
    int stop = 0;         //        and at its end
};

// A token the post-processor adds around the text.
struct TemplateToken {
    std::string token;
    int id = 0;
};

struct TokenizerJson {
    BpeLayout layout = BpeLayout::byte_level;          // BPE only
    std::shared_ptr<const UnigramModel> unigram;       // set for model.type "Unigram" (then no merges)
    Vocab vocab;                      // V tokens: model.vocab and the added tokens, ids 0..V-1 each used once
    std::array<int, 256> byte_ids{};  // the token each byte starts as: its byte-level symbol, or <0xXX> (BPE)
    BpeMergeTable merges;
    bool ignore_merges = false;  // a word that is a token is that token, without merging
    std::vector<NormalizerStep> normalizer;
    bool whitespace_split = false;           // WhitespaceSplit: words cut at white space, which goes; before metaspace
    std::optional<MetaspaceStep> metaspace;  // runs on each word, before `splits`
    std::vector<WordSplit> splits;
    std::vector<JsonAddedToken> added_tokens;
    std::vector<TemplateToken> before_text, after_text;  // the post-processor's "single" template
    std::vector<DecoderStep> decoder;
};

// Errors are one line: "<file name>: <field>: <what>", e.g.
//   tokenizer.json: model.type "WordPiece" is not supported (only "BPE" and "Unigram")
//   tokenizer.json: unsupported pre-tokenizer pattern "\s+"
Result<TokenizerJson> read_tokenizer_json(const TokenizerFile& file);

}  // namespace attnlab
