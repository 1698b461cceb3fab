// A SentencePiece model (Llama 2's tokenizer.model, Marian's source.spm and target.spm) as Debian's
// libsentencepiece reads and runs it: the library Hugging Face's slow tokenizers call, so its pieces, ids and
// decoded text are theirs. This wrapper keeps the library's headers out of the rest of core and turns its
// status codes into one-line errors.
#pragma once

#include "result.h"
#include "text/subword_tokenizer.h"
#include "text/text_span.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace attnlab {

// One piece of an encoding: the model's piece ("▁The", "<0xF0>", or the text of an unknown character),
// its id, and the bytes of the encoded text it came from. The "▁" SentencePiece puts before the text
// has an empty span; every <0xXX> piece of one character has that character's span.
struct SentencePiece {
    std::string piece;
    int id = 0;
    TextSpan span;
};

class SentencePieceModel {
public:
    // The file's bytes (a serialized ModelProto). Errors are one line naming the file, e.g.
    //   source.spm: not a SentencePiece model (the library says: "unk is not defined.")
    static Result<SentencePieceModel> from_bytes(const TokenizerFile& file);

    // `text` is valid UTF-8 (asserted). Normalization, the "▁" before the text and between words, merges
    // or the unigram's best path, and byte fallback are the model's own.
    std::vector<SentencePiece> encode(std::string_view text) const;

    // The text of the pieces as the model writes it back: "▁" as spaces, the leading one dropped, <0xXX> runs
    // as their bytes. A string that is no piece of the model is written as it is. Valid UTF-8 (U+FFFD for
    // bytes that are not).
    std::string decode(const std::vector<std::string>& pieces) const;

    int size() const;                        // V, the number of pieces
    const std::string& piece(int id) const;  // asserts 0 <= id < size()
    bool is_control(int id) const;           // <s>, </s>: never in an encoding of text
    bool is_unknown(int id) const;           // <unk>
    std::optional<int> bos_id() const;       // <s>, unless the model has none
    std::optional<int> eos_id() const;       // </s>, unless the model has none

private:
    explicit SentencePieceModel(std::shared_ptr<const sentencepiece::SentencePieceProcessor> processor);

    std::shared_ptr<const sentencepiece::SentencePieceProcessor> processor_;  // immutable, shared by copies
};

}  // namespace attnlab
