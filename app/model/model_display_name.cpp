// A model's path, shortened for titles and lists.
#include "model_display_name.h"

#include <filesystem>

namespace attnlab::gui {

std::string model_display_name(const std::string& path) {
    std::filesystem::path p = std::filesystem::path(path).lexically_normal();
    if (!p.has_filename()) p = p.parent_path();  // "dir/"
    if (p.filename() == "config.json" && p.has_parent_path()) p = p.parent_path();
    return p.filename().string();
}

}  // namespace attnlab::gui
