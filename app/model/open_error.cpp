// Which of the common cases a failed open is, from a look at the path and its first bytes.
#include "open_error.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace attnlab::gui {

namespace {

// "/a/b/notes.txt" -> "notes.txt"; "/models/gpt2/" -> "gpt2"; a folder's config.json -> the folder.
std::string name_of(const fs::path& p) {
    fs::path q = p.has_filename() ? p : p.parent_path();
    if (q.filename() == "config.json" && q.has_parent_path() && q.parent_path().has_filename()) q = q.parent_path();
    return q.filename().empty() ? p.string() : q.filename().string();
}

bool starts_with(const std::array<unsigned char, 16>& head, size_t n, std::initializer_list<unsigned char> magic) {
    return n >= magic.size() && std::memcmp(head.data(), magic.begin(), magic.size()) == 0;
}

OpenProblem::Kind folder_kind(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / "config.json", ec)) return OpenProblem::Kind::folder_without_config;
    if (!fs::is_regular_file(dir / "model.safetensors", ec) &&
        !fs::is_regular_file(dir / "model.safetensors.index.json", ec))
        return OpenProblem::Kind::folder_without_weights;
    return OpenProblem::Kind::unsupported_folder;
}

OpenProblem::Kind file_kind(const fs::path& path) {
    using Kind = OpenProblem::Kind;
    std::error_code ec;
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) return Kind::unreadable;
    if (size == 0) return Kind::empty_file;
    std::ifstream in(path, std::ios::binary);
    if (!in) return Kind::unreadable;
    std::array<unsigned char, 16> head{};
    in.read(reinterpret_cast<char*>(head.data()), head.size());
    const size_t n = static_cast<size_t>(in.gcount());
    if (starts_with(head, n, {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}) ||
        starts_with(head, n, {0xff, 0xd8, 0xff}) || starts_with(head, n, {'G', 'I', 'F', '8'}))
        return Kind::image;
    // safetensors: an 8-byte little-endian header length, then that many bytes of JSON object.
    uint64_t header = 0;
    for (size_t i = 0; i < 8 && i < n; ++i) header |= static_cast<uint64_t>(head[i]) << (8 * i);
    const bool looks_safetensors = n > 8 && size > 8 && header >= 2 && header <= size - 8 && head[8] == '{';
    if (looks_safetensors) return Kind::not_a_model;
    return path.extension() == ".safetensors" ? Kind::damaged_safetensors : Kind::not_safetensors;
}

}  // namespace

OpenProblem explain_open_error(const std::string& path, const std::string& technical) {
    const fs::path p(path);
    OpenProblem problem{OpenProblem::Kind::not_safetensors, name_of(p), technical};
    std::error_code ec;
    const fs::file_status status = fs::status(p, ec);
    if (!fs::exists(status)) {
        // A folder's config.json that is missing: say which folder lacks it.
        const bool config_in_folder = p.filename() == "config.json" && fs::is_directory(p.parent_path(), ec);
        problem.kind = config_in_folder ? OpenProblem::Kind::folder_without_config : OpenProblem::Kind::missing;
        return problem;
    }
    if (fs::is_directory(status)) {
        problem.kind = folder_kind(p);
    } else if (p.filename() == "config.json") {
        problem.kind = folder_kind(p.has_parent_path() ? p.parent_path() : fs::path("."));
    } else if (!fs::is_regular_file(status)) {
        problem.kind = OpenProblem::Kind::unreadable;
    } else {
        problem.kind = file_kind(p);
    }
    return problem;
}

}  // namespace attnlab::gui
