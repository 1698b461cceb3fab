// The interface of the Hugging Face tokenizers that models bring with them (GPT-2's byte-level
// BPE, BERT's WordPiece): text -> ids, keeping where in the text each token came from, and back.
#pragma once

#include "result.h"
#include "text/text_span.h"
#include "text/tokenizer.h"
#include "text/vocab.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// A tokenizer file's contents and the name its errors use (the path, as io::display_path shows it).
struct TokenizerFile {
    std::string_view name;
    std::string_view text;
};

struct SubwordEncoding {
    // ids; pieces[i] is the text at spans[i] (the token itself for a [CLS]/[SEP] the tokenizer
    // adds); unknown lists the tokens that are [UNK] because no vocabulary entry matched.
    Tokenized tokens;
    // One per token: whole code points of the encoded text, so a character that GPT-2 splits
    // over two tokens belongs to both. Empty (begin == end) for an added [CLS]/[SEP].
    std::vector<TextSpan> spans;

    // A token read from text[span].
    void append(std::string_view text, int id, TextSpan span) {
        tokens.ids.push_back(id);
        tokens.pieces.emplace_back(text.substr(span.begin, span.end - span.begin));
        spans.push_back(span);
    }
    // A token the tokenizer adds at byte `at`: its piece is its own text, its span empty.
    void append_added(std::string_view token, int id, size_t at) {
        tokens.ids.push_back(id);
        tokens.pieces.emplace_back(token);
        spans.push_back({at, at});
    }
};

class SubwordTokenizer {
public:
    virtual ~SubwordTokenizer() = default;

    // Errors only on invalid UTF-8, naming the byte offset. The special tokens of the vocabulary
    // (<|endoftext|>, [MASK], ...) are recognised where the text spells them exactly.
    virtual Result<SubwordEncoding> encode(std::string_view text) const = 0;

    // Valid UTF-8 for any ids: skip_special drops special tokens, and ids outside the vocabulary
    // render as "<?id>".
    virtual std::string decode(const std::vector<int>& ids, bool skip_special) const = 0;

    virtual const Vocab& vocab() const = 0;

    virtual const char* name() const = 0;  // "byte-level BPE", "WordPiece"
};

}  // namespace attnlab
