// A Hugging Face folder's tokenizer: load_hf_folder calls attach_tokenizer once the weights have
// loaded, and nothing else reads tokenizer files.
//   gpt2  vocab.json + merges.txt -> ByteLevelBpeTokenizer (no tokens added around the text)
//   bert  vocab.txt, with tokenizer_config.json's do_lower_case and strip_accents when present
//         -> WordPieceTokenizer ([CLS] … [SEP])
//   llama, mistral, qwen2, qwen3  tokenizer.json -> JsonBpeTokenizer (byte-level BPE or BPE with byte fallback;
//         the BOS its post-processor's template adds, as Llama's <|begin_of_text|> or <s>, and none for Qwen);
//         without tokenizer.json, tokenizer.model -> SentencePieceTokenizer (the model's ids; <s> first unless
//         tokenizer_config.json's add_bos_token is false, </s> last if add_eos_token is true)
//   t5    tokenizer.json (Unigram: text/unigram_model.h) -> JsonBpeTokenizer ("$A </s>"); without it spiece.model
//   marian  source.spm + target.spm + vocab.json -> MarianTokenizer, one for each side (vocab.json's ids,
//         </s> last)
// The tokenizer goes on Model::subword_tokenizer (Marian's target side on target_subword_tokenizer) and its
// vocabulary on the model's sides (tgt_vocab for a decoder, src_vocab for an encoder). A folder without its
// family's files keeps no tokenizer: text is refused ("give token ids instead of text") and ids work.
#pragma once

#include "model.h"
#include "result.h"

#include <string>
#include <vector>

namespace attnlab {

struct AttachedTokenizer {
    std::vector<std::string> files_read;    // e.g. {"vocab.json", "merges.txt"}; empty: no tokenizer
    std::vector<std::string> files_unread;  // tokenizer files present but not read (tokenizer.model, ...)
};

// The files a family's tokenizer is read from, as a message names them: "vocab.json + merges.txt".
const char* tokenizer_files_expected(Family family);

// Errors are one line naming the file: unreadable, malformed, only one of vocab.json and
// merges.txt (or some of Marian's three files), or a vocabulary larger than config.json's vocab_size.
Result<AttachedTokenizer> attach_tokenizer(const std::string& dir, Model& model);

}  // namespace attnlab
