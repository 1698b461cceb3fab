// Why a model could not be opened, in plain words: the path is looked at (missing, a folder,
// empty, an image, a safetensors file or not) so the app can say "notes.txt is not a safetensors
// model file" instead of "header length 8389754706678849571 exceeds the 100 MB limit". The
// loader's own message stays as the detail.
#pragma once

#include <string>

namespace attnlab::gui {

struct OpenProblem {
    enum class Kind {
        missing,                 // nothing at the path
        unreadable,              // there, but it cannot be read (permissions, a device)
        empty_file,              // 0 bytes
        image,                   // a PNG, JPEG or GIF
        not_safetensors,         // some other kind of file (text, random bytes, …)
        damaged_safetensors,     // named .safetensors, but its header cannot be read (truncated, corrupt)
        not_a_model,             // a readable safetensors file that is not a model (a trace, missing tensors)
        folder_without_config,   // a folder, but no config.json in it
        folder_without_weights,  // a Hugging Face folder without model.safetensors or its shards' index
        unsupported_folder,      // a Hugging Face folder this app cannot read (architecture, tokenizer, …)
    };
    Kind kind = Kind::not_safetensors;
    std::string name;    // what the user would call it: the file's name, or the folder's
    std::string detail;  // the loader's technical message, unchanged
};

// `technical` is the loader's message for opening `path` (open_model); the path is examined again
// to say which case it is.
OpenProblem explain_open_error(const std::string& path, const std::string& technical);

}  // namespace attnlab::gui
