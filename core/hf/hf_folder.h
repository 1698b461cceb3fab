// A Hugging Face model folder: config.json + model.safetensors, or the shards that
// model.safetensors.index.json names (io/folder_weights.h), + tokenizer files, for the GPT-2
// (model_type gpt2) and BERT (bert) families. Each weights file is memory-mapped and each
// F32 tensor is a read-only view of it, used in place (a Conv1D (in, out) weight is not
// transposed): opening GPT-2 small costs its header, its checks and one pass over the values.
// Either everything loads or nothing does; every error is one line naming the file and the
// field or tensor at fault.
#pragma once

#include "hf/hf_tokenizer.h"
#include "model.h"
#include "result.h"

#include <string>
#include <vector>

namespace attnlab {

struct LoadedModel {
    Model model;
    std::string format;                       // "Hugging Face gpt2 folder", "Attention Lab model file"
    std::vector<std::string> unused_tensors;  // in the file, not read: buffers, BERT's pooler, tied copies
    AttachedTokenizer tokenizer;              // which tokenizer files were read (hf_tokenizer.h)
};

Result<LoadedModel> load_hf_folder(const std::string& dir);

}  // namespace attnlab
