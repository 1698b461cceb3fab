// Opens what a user points at: a Hugging Face model folder (hf_folder.h), given as the folder or
// as its config.json, or one of our .safetensors model files (io/model_file.h).
#pragma once

#include "hf/hf_folder.h"

#include <optional>
#include <string>

namespace attnlab {

Result<LoadedModel> open_model(const std::string& path);

// The Hugging Face folder `path` names (the folder, or its config.json), or nullopt for a model file.
std::optional<std::string> hf_folder_of(const std::string& path);

}  // namespace attnlab
