// The path the Model panel's Save field starts with. A model opened from one of our files saves back to it; a
// bundled model (assets/models) never does, since saving there would overwrite the model the tour and the next
// start open: it suggests "<name>-edited.safetensors" in the user's home folder instead. A model with no file of
// its own (a Hugging Face folder, a random one) suggests "<folder name>.safetensors" or "model.safetensors" there.
#pragma once

#include <string>

namespace attnlab::gui {

// `model_name`: the opened model's path (or a name such as "llama-tiny (random, seed 1)"); `bundled_dir`: the
// folder of the bundled models; `home`: the user's home folder (empty: the working folder).
std::string save_suggestion(const std::string& model_name, const std::string& bundled_dir, const std::string& home);

// Where a typed save path lands, in full, so the status line and the menu bar name its folder: "a.safetensors" ->
// "<working folder>/a.safetensors", "~/a.safetensors" -> "<home>/a.safetensors" (when home is known).
std::string save_location(const std::string& typed, const std::string& home);

}  // namespace attnlab::gui
