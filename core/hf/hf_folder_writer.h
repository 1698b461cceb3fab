// Saving a model opened from a Hugging Face folder (hf_folder.h) as the folder Hugging Face's save_pretrained
// would write once it is trained: the source's config.json unchanged (training changes no architecture), one
// model.safetensors (F32, __metadata__ {"format": "pt"}, a sharded source too) holding every parameter under the
// name the source's file gave it, and the source's tokenizer files copied byte for byte. The reader keeps each
// tensor in its file's layout (GPT-2's Conv1D weights (in, out)) and reads a (1, n) row as its vector (Marian's
// final_logits_bias), so the writer gives each parameter back the source tensor's shape.
// Of what the source holds beyond the parameters, save_pretrained writes neither the non-persistent buffers
// (GPT-2's attn.bias and attn.masked_bias, BERT's position_ids, older Llamas' rotary_emb.inv_freq) nor tied
// copies of the token table (lm_head.weight, cls.predictions.decoder.weight, Marian's encoder and decoder
// embed_tokens): those are left out. The rest (BERT's pooler, Marian's sinusoid tables) is copied unchanged, as F32;
// an integer tensor other than those buffers cannot be written as F32 and is left out too.
#pragma once

#include "model.h"
#include "result.h"

#include <string>

namespace attnlab {

// model must have been opened from source_folder (its parameters are the folder's, shape for shape). An existing
// out_folder is replaced only when it holds nothing but a model folder's files (config.json, *.safetensors, the
// shards' index, tokenizer files): an empty folder or an earlier save. Errors are one line: out_folder is the
// source folder, a file, a folder of other things, or cannot be written; the source is not a Hugging Face folder
// or does not match the model.
Status write_hf_folder(const std::string& out_folder, const Model& model, const std::string& source_folder);

}  // namespace attnlab
