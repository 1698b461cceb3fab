// BERT's vocab.txt: one token per line, the line number (from 0) being its id.
#pragma once

#include "result.h"
#include "text/subword_tokenizer.h"
#include "text/vocab.h"

namespace attnlab {

// Lines end in \n or \r\n; a final \n ends the last line rather than starting an empty one.
// Errors (one line, naming the file and line): an empty line, invalid UTF-8, a repeated token,
// an empty file.
Result<Vocab> parse_wordpiece_vocab(const TokenizerFile& vocab_txt);

}  // namespace attnlab
