// BERT's tokenizer: WordPiece from vocab.txt, as Hugging Face's BERT tokenizer runs it. Text is
// cut at the special tokens it spells ([MASK], ...), normalized and split into words
// (text/bert_basic_tokenizer.h); each word becomes its longest prefix in the vocabulary, then
// the longest "##"-continuation, and so on, or [UNK] as a whole when no way through exists or
// it is longer than 100 code points. The sequence is [CLS] tokens [SEP].
//
// Where Hugging Face's two BERT tokenizers differ, this follows the fast (Rust) one, the default:
// it lower-cases one code point at a time, so a word-final Σ becomes σ where the Python one
// (str.lower) makes it ς; and it strips accents before lower-casing, the Python one after (the
// same result for every code point of Unicode 14.0). The Unicode data is version 14.0; Hugging
// Face's crates carry their own versions, so code points assigned since may be classed
// differently. vocab.txt may not hold empty lines or a token twice, where Hugging Face would
// give them ids.
#pragma once

#include "result.h"
#include "text/subword_tokenizer.h"

#include <memory>
#include <optional>

namespace attnlab {

// The tokenizer_config.json settings of a BERT model.
struct WordPieceOptions {
    bool lower_case = true;             // "do_lower_case": true for *-uncased models
    std::optional<bool> strip_accents;  // "strip_accents"; unset (null): the same as lower_case
};

class WordPieceTokenizer final : public SubwordTokenizer {
public:
    static constexpr size_t kMaxWordChars = 100;  // counted after normalization

    // vocab.txt must hold [UNK], [CLS] and [SEP]; see text/wordpiece_vocab.h for the format.
    static Result<WordPieceTokenizer> from_file(const TokenizerFile& vocab_txt, const WordPieceOptions& options);

    // [CLS] first and [SEP] last, always.
    Result<SubwordEncoding> encode(std::string_view text) const override;
    // Tokens joined by spaces, a "##" continuation glued to the token before, then Hugging
    // Face's clean-up (" ." -> ".", " n't" -> "n't", ...). skip_special drops [PAD] [UNK]
    // [CLS] [SEP] [MASK], as Hugging Face's skip_special_tokens does.
    std::string decode(const std::vector<int>& ids, bool skip_special) const override;
    const Vocab& vocab() const override;
    const char* name() const override { return "WordPiece"; }

    int unk_id() const;
    int cls_id() const;
    int sep_id() const;
    std::optional<int> pad_id() const;
    std::optional<int> mask_id() const;

private:
    struct State;
    explicit WordPieceTokenizer(std::shared_ptr<const State> state);

    std::shared_ptr<const State> state_;  // immutable, shared by copies
};

}  // namespace attnlab
