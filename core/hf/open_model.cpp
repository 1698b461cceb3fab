// A folder, or the config.json in one, is a Hugging Face model; anything else is read as our model file.
#include "hf/open_model.h"

#include "io/file_bytes.h"
#include "io/model_file.h"

#include <filesystem>

namespace attnlab {

std::optional<std::string> hf_folder_of(const std::string& path) {
    if (io::is_directory(path)) return path;
    if (const std::filesystem::path p(path); p.filename() == "config.json")
        return p.has_parent_path() ? p.parent_path().string() : ".";
    return std::nullopt;
}

Result<LoadedModel> open_model(const std::string& path) {
    if (const auto folder = hf_folder_of(path)) return load_hf_folder(*folder);
    auto model = io::read_model(path);
    if (!model) return model.error();
    return LoadedModel{std::move(*model), "Attention Lab model file", {}, {}};
}

}  // namespace attnlab
