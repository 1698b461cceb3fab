// Opens what a user points at: a Hugging Face model folder (hf_folder.h), given as the folder or
// as its config.json, or one of our .safetensors model files (io/model_file.h).
#pragma once

#include "hf/hf_folder.h"

namespace attnlab {

Result<LoadedModel> open_model(const std::string& path);

}  // namespace attnlab
