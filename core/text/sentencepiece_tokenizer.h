// The tokenizer of a folder whose only tokenizer file is a SentencePiece tokenizer.model (Llama 2,
// TinyLlama, older Mistral files), as transformers' LlamaTokenizer runs it with legacy=True:
//   1. the text is cut at the special tokens it spells (the model's control and unknown pieces: <s>,
//      </s>, <unk>), which are those tokens;
//   2. each piece between them is encoded by the model (text/sentencepiece_model.h), so each starts with
//      its own "▁", as Llama 2's tokenizer.json also does;
//   3. <s> goes first when add_bos (tokenizer_config.json's add_bos_token), </s> last when add_eos.
// Ids are the model's own.
#pragma once

#include "result.h"
#include "text/sentencepiece_model.h"
#include "text/special_token_split.h"
#include "text/subword_tokenizer.h"
#include "text/vocab.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct SentencePieceOptions {
    bool add_bos = true;   // LlamaTokenizer's add_bos_token default
    bool add_eos = false;  // and add_eos_token's
};

class SentencePieceTokenizer final : public SubwordTokenizer {
public:
    // Errors are one line naming the file: not a SentencePiece model, add_bos or add_eos for a model
    // without <s> or </s>, or pieces that are no vocabulary (an empty piece, one that is not UTF-8).
    static Result<SentencePieceTokenizer> from_model(const TokenizerFile& model, SentencePieceOptions options);

    // A piece of the text is the text at its span; the "▁" the model puts before each piece of the text, and
    // the <s> and </s> added around it, have empty spans and are their own tokens.
    Result<SubwordEncoding> encode(std::string_view text) const override;
    // Runs of ordinary tokens as the model decodes them (text/sentencepiece_model.h), each special token
    // (<s>, </s>, <unk>) between them as its own text, or dropped with skip_special; ids outside the
    // vocabulary as "<?id>".
    std::string decode(const std::vector<int>& ids, bool skip_special) const override;
    const Vocab& vocab() const override;  // the model's pieces, id for id
    const char* name() const override;    // "SentencePiece (tokenizer.model)": the file read (T5's spiece.model)

    std::optional<int> bos_id() const;  // the <s> put before the text, if add_bos

private:
    SentencePieceTokenizer(SentencePieceModel model, Vocab vocab, std::vector<SpecialToken> specials,
                           SentencePieceOptions options, std::string name);

    SentencePieceModel model_;
    Vocab vocab_;
    std::vector<SpecialToken> specials_;  // the control and unknown pieces, matched in the text
    SentencePieceOptions options_;
    std::string name_;  // "SentencePiece (<the model file's name>)"
};

}  // namespace attnlab
