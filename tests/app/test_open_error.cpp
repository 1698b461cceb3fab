// A failed open explained in plain words: each common mistake (a text file, random bytes, an
// empty file, a missing file, a folder without config.json, a PNG) is told apart from the path
// itself, while the loader's own message stays as the detail.
#include "default_model.h"
#include "hf/open_model.h"
#include "io/safetensors.h"
#include "open_error.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

using namespace attnlab;
using namespace attnlab::gui;
namespace fs = std::filesystem;
using Kind = OpenProblem::Kind;

namespace {

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("attnlab-open-error-" + std::to_string(::getpid()));
    TempDir() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary);
    out << bytes;
}

// What the app does: open, and on failure explain it with the loader's message.
OpenProblem open_and_explain(const fs::path& p) {
    auto opened = open_model(p.string());
    REQUIRE_FALSE(opened);
    const OpenProblem problem = explain_open_error(p.string(), opened.error().message);
    CHECK(problem.detail == opened.error().message);
    return problem;
}

}  // namespace

TEST_CASE("a text file or random bytes dropped on the window are not safetensors model files", "[app]") {
    TempDir dir;
    write(dir.path / "notes.txt", "i like red apples, and this is not a model at all\n");
    const OpenProblem text = open_and_explain(dir.path / "notes.txt");
    CHECK(text.kind == Kind::not_safetensors);
    CHECK(text.name == "notes.txt");

    std::mt19937 rng(7);
    std::string noise(4096, '\0');
    for (char& c : noise) c = static_cast<char>(rng() & 0xff);
    noise[8] = 'x';  // never by chance a '{' after a small header length
    write(dir.path / "noise.bin", noise);
    CHECK(open_and_explain(dir.path / "noise.bin").kind == Kind::not_safetensors);

    // The same bytes named .safetensors read as a damaged file rather than some other kind.
    write(dir.path / "broken.safetensors", noise);
    const OpenProblem broken = open_and_explain(dir.path / "broken.safetensors");
    CHECK(broken.kind == Kind::damaged_safetensors);
    CHECK(broken.name == "broken.safetensors");
}

TEST_CASE("an empty file, a missing file and a PNG are each named as such", "[app]") {
    TempDir dir;
    write(dir.path / "empty.safetensors", "");
    CHECK(open_and_explain(dir.path / "empty.safetensors").kind == Kind::empty_file);

    const OpenProblem missing = open_and_explain(dir.path / "gone.safetensors");
    CHECK(missing.kind == Kind::missing);
    CHECK(missing.name == "gone.safetensors");

    // A PNG's signature and the start of its IHDR chunk (16 × 16, RGBA), then zeros.
    const unsigned char signature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0,  13, 'I',
                                       'H',  'D', 'R', 0,   0,    0,    16,   0,    0, 0, 16, 8,  6};
    write(dir.path / "heatmap.png",
          std::string(reinterpret_cast<const char*>(signature), sizeof signature) + std::string(64, '\0'));
    const OpenProblem png = open_and_explain(dir.path / "heatmap.png");
    CHECK(png.kind == Kind::image);
    CHECK(png.name == "heatmap.png");
}

TEST_CASE("a folder is named by its folder, with or without config.json", "[app]") {
    TempDir dir;
    fs::create_directories(dir.path / "photos");
    write(dir.path / "photos" / "a.txt", "hello");
    const OpenProblem plain = open_and_explain(dir.path / "photos");
    CHECK(plain.kind == Kind::folder_without_config);
    CHECK(plain.name == "photos");
    CHECK(explain_open_error((dir.path / "photos").string() + "/", "x").name == "photos");

    fs::create_directories(dir.path / "gpt2");
    write(dir.path / "gpt2" / "config.json", R"({"model_type": "gpt2"})");
    const OpenProblem no_weights = open_and_explain(dir.path / "gpt2");
    CHECK(no_weights.kind == Kind::folder_without_weights);
    CHECK(no_weights.name == "gpt2");
    // Chosen by its config.json (the file dialog's way), it is still the folder.
    const OpenProblem by_config = open_and_explain(dir.path / "gpt2" / "config.json");
    CHECK(by_config.kind == Kind::folder_without_weights);
    CHECK(by_config.name == "gpt2");
    // Shards that fail to open are not "no weights": the loader's line says which file is at fault.
    fs::copy_file(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2/config.json",
                  dir.path / "gpt2" / "config.json", fs::copy_options::overwrite_existing);
    write(dir.path / "gpt2" / "model.safetensors.index.json", R"({"weight_map": {"wte.weight": "gone.safetensors"}})");
    const OpenProblem bad_shards = open_and_explain(dir.path / "gpt2");
    CHECK(bad_shards.kind == Kind::unsupported_folder);
    CHECK_THAT(bad_shards.detail, Catch::Contains("gone.safetensors"));
}

TEST_CASE("a safetensors file that is not a model says so", "[app]") {
    TempDir dir;
    io::SafetensorsFile file;  // a readable safetensors file with one tensor and no model config
    file.tensors.emplace("x", Tensor({2, 2}));
    REQUIRE(io::write_safetensors((dir.path / "trace.safetensors").string(), file));
    const OpenProblem p = open_and_explain(dir.path / "trace.safetensors");
    CHECK(p.kind == Kind::not_a_model);
    CHECK(p.name == "trace.safetensors");
}

TEST_CASE("a bad --model at launch opens the bundled model and says why in plain words", "[app]") {
    TempDir dir;
    const std::string assets = std::string(ATTNLAB_SOURCE_DIR) + "/assets";
    const std::string bundled = bundled_default_model(assets);
    REQUIRE_FALSE(bundled.empty());
    // A truncated copy of the bundled model: its header promises more bytes than there are.
    std::ifstream in(bundled, std::ios::binary);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    write(dir.path / "cut.safetensors", head);
    write(dir.path / "notes.txt", "not a model\n");
    fs::create_directories(dir.path / "empty");
    const std::pair<fs::path, Kind> cases[] = {{dir.path / "notes.txt", Kind::not_safetensors},
                                               {dir.path / "missing.safetensors", Kind::missing},
                                               {dir.path / "empty", Kind::folder_without_config},
                                               {dir.path / "cut.safetensors", Kind::damaged_safetensors}};
    for (const auto& [path, kind] : cases) {
        INFO(path);
        std::optional<OpenProblem> problem;
        auto session = launch_session(assets, path.string(), std::nullopt, std::nullopt, problem);
        REQUIRE(session);
        CHECK(session->model_name() == bundled);  // the app opens as it would without --model
        REQUIRE(problem);
        CHECK(problem->kind == kind);
        CHECK(problem->name == path.filename().string());
        CHECK_FALSE(problem->detail.empty());  // the loader's message, for the tooltip
    }
    // A good --model opens, with nothing to say.
    std::optional<OpenProblem> problem;
    const std::string reverse = assets + "/models/reverse.safetensors";
    auto session = launch_session(assets, reverse, std::nullopt, std::nullopt, problem);
    REQUIRE(session);
    CHECK(session->model_name() == reverse);
    CHECK_FALSE(problem);
}
