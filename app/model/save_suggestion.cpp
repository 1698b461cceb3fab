#include "save_suggestion.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
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

// "<home>/<file>", or the bare file name when home is unknown.
std::string in_home(const std::string& home, const std::string& file) {
    return home.empty() ? file : (std::filesystem::path(home) / file).string();
}

// The folder's own name: "/tmp/input/gpt2-124m/" -> "gpt2-124m"; "" for a name that is no path (a random model's).
std::string folder_name(const std::string& model_name) {
    if (model_name.find('/') == std::string::npos) return "";
    std::filesystem::path folder = std::filesystem::path(model_name).lexically_normal();
    if (!folder.has_filename()) folder = folder.parent_path();  // "dir/" normalises to "dir/" with an empty name
    return folder.filename().string();
}

}  // namespace

std::string save_suggestion(const std::string& model_name, const std::string& bundled_dir, const std::string& home) {
    if (!model_name.ends_with(".safetensors")) {
        const std::string folder = folder_name(model_name);
        return in_home(home, (folder.empty() ? "model" : folder) + ".safetensors");
    }
    if (bundled_dir.empty() || !inside(model_name, bundled_dir)) return model_name;
    return in_home(home, std::filesystem::path(model_name).stem().string() + "-edited.safetensors");
}

std::string save_location(const std::string& typed, const std::string& home) {
    namespace fs = std::filesystem;
    fs::path path = typed;
    if (!home.empty() && typed.starts_with("~/")) path = fs::path(home) / typed.substr(2);
    std::error_code ec;
    if (fs::path full = fs::absolute(path, ec); !ec) path = std::move(full);
    return path.lexically_normal().string();
}

}  // namespace attnlab::gui
