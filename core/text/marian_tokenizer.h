// One side of a Marian folder's tokenizer (Helsinki-NLP's opus-mt models), as transformers' MarianTokenizer
// (the v4 releases' tokenization_marian.py) runs it:
//   1. the text is cut at the special tokens it spells (</s>, <unk>, <pad>), which are those tokens;
//   2. in each piece between them, remove_language_code: language_code_re ">>.+<<" (greedy, "." not a
//      newline); a match at the start of the piece is one token (">>fra<<"), and every match is taken out
//      of the text;
//   3. what is left is encoded by the side's model: source.spm for source text, target.spm for target text
//      (text/sentencepiece_model.h);
//   4. each token's id is vocab.json's (shared by both sides), <unk>'s for a token it lacks;
//   5. </s> goes last (build_inputs_with_special_tokens).
// Decoding, either side: ids to tokens through vocab.json, then convert_tokens_to_string with target.spm.
// Left out: the optional sacremoses punctuation normalizer (MarianTokenizer.normalize, which tokenize
// never calls), clean_up_tokenization_spaces, and separate_vocabs (target_vocab.json).
#pragma once

#include "result.h"
#include "text/sentencepiece_model.h"
#include "text/special_token_split.h"
#include "text/subword_tokenizer.h"
#include "text/vocab.h"

#include <memory>
#include <string_view>
#include <vector>

namespace attnlab {

class MarianTokenizer final : public SubwordTokenizer {
public:
    // The source side. Errors are one line naming the file: a .spm that is not a SentencePiece model, a
    // vocab.json that is not an object of ids 0..V-1 each used once, or one without <unk>, </s> or <pad>.
    static Result<MarianTokenizer> from_files(const TokenizerFile& source_spm, const TokenizerFile& target_spm,
                                              const TokenizerFile& vocab_json);
    // The same files, encoding with target.spm.
    MarianTokenizer target_side() const;

    // A token of the text is the text at its span (a language code's too); the "▁" the model puts before the
    // text and the </s> added after it have empty spans and are their own tokens. `unknown` lists the tokens
    // vocab.json lacks.
    Result<SubwordEncoding> encode(std::string_view text) const override;
    // convert_tokens_to_string: runs of tokens decoded by target.spm, each special token (</s>, <unk>, <pad>,
    // and "<?id>" for an id outside vocab.json) written after the run before it and followed by a space, the
    // whole stripped of white space at both ends. skip_special drops </s>, <unk> and <pad> first, as
    // decode(skip_special_tokens=True) does.
    std::string decode(const std::vector<int>& ids, bool skip_special) const override;
    const Vocab& vocab() const override;  // vocab.json, id for id (V tokens)
    const char* name() const override;    // "SentencePiece (source.spm + vocab.json)", or target.spm

    int eos_id() const;  // </s>
    int unk_id() const;  // <unk>
    int pad_id() const;  // <pad>

private:
    struct Tables;
    MarianTokenizer(std::shared_ptr<const Tables> tables, bool target);

    const SentencePieceModel& encoder() const;

    std::shared_ptr<const Tables> tables_;  // immutable, shared by both sides
    bool target_ = false;                   // encodes with target.spm
};

}  // namespace attnlab
