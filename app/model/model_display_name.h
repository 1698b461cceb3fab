// How a model's path is shown: a Hugging Face folder (or its config.json) by the folder's name, a file by its name.
#pragma once

#include <string>

namespace attnlab::gui {

std::string model_display_name(const std::string& path);  // "models/gpt2/config.json" -> "gpt2"

}  // namespace attnlab::gui
