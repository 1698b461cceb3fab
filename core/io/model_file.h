// A model as one .safetensors file: tensors named as torch.nn.Transformer().state_dict()
// plus src_embed/tgt_embed/generator/pos_embed, the config JSON in __metadata__["config"],
// and optional vocabularies (__metadata__["src_vocab"], ["tgt_vocab"], ["tokenizer"]).
#pragma once

#include "io/safetensors.h"
#include "model.h"

namespace attnlab::io {

Result<Model> read_model(const std::string& path);
Result<Model> model_from_safetensors(SafetensorsFile file, const std::string& source_name);
SafetensorsFile model_to_safetensors(const Model& model);
Status write_model(const std::string& path, const Model& model);  // atomic

}  // namespace attnlab::io
