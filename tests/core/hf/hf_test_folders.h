// Helpers for the Hugging Face folder tests: the committed fixtures (tests/golden/make_hf_golden.py)
// and temporary copies of them with an edited config.json or edited tensors.
#pragma once

#include "io/mapped_safetensors.h"
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

namespace attnlab::test {

inline std::string hf_fixture(const std::string& name) {
    return std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/" + name;
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A folder under the temp directory, removed with everything in it when this goes out of scope.
class TempFolder {
public:
    TempFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "attnlab-hf-test-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempFolder() { std::filesystem::remove_all(path_); }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

using TensorEdit = std::function<void(std::map<std::string, Tensor>&)>;
using ConfigEdit = std::function<void(nlohmann::json&)>;

// A copy of fixture folder `name` with its config.json and its float tensors edited (tensors of
// other dtypes, such as BERT's I64 position_ids, are left out of the copy).
inline void write_edited_copy(const std::string& name, const TempFolder& to, const ConfigEdit& edit_config,
                              const TensorEdit& edit_tensors) {
    auto config = nlohmann::json::parse(read_text(hf_fixture(name) + "/config.json"));
    if (edit_config) edit_config(config);
    write_text(to.file("config.json"), config.dump(2));
    auto mapped = io::MappedSafetensors::open(hf_fixture(name) + "/model.safetensors");
    if (!mapped) throw std::runtime_error(mapped.error().message);
    io::SafetensorsFile file;
    for (const auto& [tensor_name, entry] : mapped->entries())
        if (auto t = mapped->tensor(tensor_name)) file.tensors[tensor_name] = **t;
    if (edit_tensors) edit_tensors(file.tensors);
    if (auto st = io::write_safetensors(to.file("model.safetensors"), file); !st)
        throw std::runtime_error(st.error().message);
}

// A copy of fixture folder `name` whose float tensors are split into two shards as the hub writes them:
// model-00001-of-00002.safetensors holds the names before `first_of_second` (in order), the other file the rest,
// and model.safetensors.index.json maps each name to its file.
inline void write_sharded_copy(const std::string& name, const TempFolder& to, const std::string& first_of_second) {
    write_text(to.file("config.json"), read_text(hf_fixture(name) + "/config.json"));
    auto mapped = io::MappedSafetensors::open(hf_fixture(name) + "/model.safetensors");
    if (!mapped) throw std::runtime_error(mapped.error().message);
    const std::string files[2] = {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"};
    io::SafetensorsFile shards[2];
    nlohmann::json index = {{"metadata", {{"total_size", 0}}}, {"weight_map", nlohmann::json::object()}};
    for (const auto& [tensor_name, entry] : mapped->entries()) {
        auto t = mapped->tensor(tensor_name);
        if (!t) continue;  // not a float dtype
        const int shard = tensor_name < first_of_second ? 0 : 1;
        shards[shard].tensors[tensor_name] = **t;
        index["weight_map"][tensor_name] = files[shard];
    }
    for (int i = 0; i < 2; ++i)
        if (auto st = io::write_safetensors(to.file(files[i]), shards[i]); !st)
            throw std::runtime_error(st.error().message);
    write_text(to.file("model.safetensors.index.json"), index.dump(2));
}

// The GPT-2 fixture with the 293-token byte-level BPE of tests/fixtures/tokenizers/gpt2 (its token table resized to
// match, with small varied values), so that it reads text.
inline void write_gpt2_with_tokenizer(const TempFolder& to) {
    const std::string tokenizer = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/gpt2/";
    write_edited_copy(
        "hf_gpt2", to, [](nlohmann::json& c) { c["vocab_size"] = 293; },
        [](std::map<std::string, Tensor>& t) {
            Tensor wte({293, 32});
            for (size_t i = 0; i < wte.data.size(); ++i) wte.data[i] = 0.01f * static_cast<float>(i % 97);
            t["wte.weight"] = wte;
        });
    for (const char* f : {"vocab.json", "merges.txt"}) write_text(to.file(f), read_text(tokenizer + f));
}

// Renames every tensor for which `rename` gives a new name ("" drops it).
inline TensorEdit rename_tensors(std::function<std::string(const std::string&)> rename) {
    return [rename](std::map<std::string, Tensor>& tensors) {
        std::map<std::string, Tensor> renamed;
        for (auto& [name, t] : tensors)
            if (const std::string n = rename(name); !n.empty()) renamed[n] = std::move(t);
        tensors = std::move(renamed);
    };
}

}  // namespace attnlab::test
