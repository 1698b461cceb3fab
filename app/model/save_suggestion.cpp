#include "save_suggestion.h"

#include <algorithm>
#include <filesystem>
#include <iterator>

namespace attnlab::gui {

namespace {

// Whether `path` lies inside `dir`, both made absolute and normal (no "..", no doubled separators).
bool inside(const std::filesystem::path& path, const std::filesystem::path& dir) {
    const auto p = std::filesystem::absolute(path).lexically_normal();
    const auto d = std::filesystem::absolute(dir).lexically_normal();
    const auto d_end = std::mismatch(d.begin(), d.end(), p.begin(), p.end()).first;
    return d_end == d.end() || (std::next(d_end) == d.end() && d_end->empty());  // "dir/" ends in an empty part
}

}  // namespace

std::string save_suggestion(const std::string& model_name, const std::string& bundled_dir, const std::string& home) {
    namespace fs = std::filesystem;
    if (!model_name.ends_with(".safetensors")) return "model.safetensors";
    if (bundled_dir.empty() || !inside(model_name, bundled_dir)) return model_name;
    const fs::path edited = fs::path(model_name).stem().string() + "-edited.safetensors";
    return (home.empty() ? edited : fs::path(home) / edited).string();
}

}  // namespace attnlab::gui
