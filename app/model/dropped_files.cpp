#include "dropped_files.h"

#include <algorithm>
#include <filesystem>

namespace attnlab::gui {

std::optional<std::string> model_file_among(const std::vector<std::string>& paths) {
    if (paths.empty()) return std::nullopt;
    const auto named = [](const std::string& path) { return std::filesystem::path(path).filename() == "config.json"; };
    const auto weights = [](const std::string& path) { return std::filesystem::path(path).extension() == ".safetensors"; };
    if (auto it = std::find_if(paths.begin(), paths.end(), named); it != paths.end()) return *it;
    if (auto it = std::find_if(paths.begin(), paths.end(), weights); it != paths.end()) return *it;
    return paths.front();
}

}  // namespace attnlab::gui
