// Which of several files handed over at once (dropped on the window, or picked in the page's file chooser) is the
// model to open. A Hugging Face folder arrives as its files: config.json, the weights, the tokenizer's files.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// One path: that one (a file or a folder). Several: the config.json among them (a Hugging Face folder opens by it),
// else the first *.safetensors, else the first. nullopt for none.
std::optional<std::string> model_file_among(const std::vector<std::string>& paths);

}  // namespace attnlab::gui
