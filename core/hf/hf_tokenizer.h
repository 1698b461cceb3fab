// The seam where a Hugging Face folder's tokenizer joins its model: load_hf_folder calls
// attach_tokenizer once the weights have loaded, and nothing else reads tokenizer files.
//
// Today it attaches nothing and reports which tokenizer files the folder holds: the model has
// no vocabulary, so text is refused ("give token ids instead of text") and --src-ids work.
// When core/text's tokenizers land, this function reads the files (io::read_file_bytes) and
// puts the tokenizer on the model:
//   gpt2  vocab.json + merges.txt  -> ByteLevelBpeTokenizer (no tokens added around the text)
//   bert  vocab.txt (+ tokenizer_config.json's do_lower_case) -> WordPieceTokenizer ([CLS] … [SEP]),
//         and config.sos_id / eos_id / unk_id become its [CLS] / [SEP] / [UNK]
// encode_source_text / encode_target_text (model.h) then use it instead of our word/char tokenizers.
#pragma once

#include "model.h"
#include "result.h"

#include <string>
#include <vector>

namespace attnlab {

// The names of the tokenizer files in `dir`: vocab.json, merges.txt, vocab.txt, tokenizer.json,
// tokenizer_config.json, those present, in that order.
Result<std::vector<std::string>> attach_tokenizer(const std::string& dir, Model& model);

}  // namespace attnlab
