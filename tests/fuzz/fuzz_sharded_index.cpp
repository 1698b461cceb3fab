// libFuzzer target: a sharded Hugging Face folder (model.safetensors.index.json and the shard files it
// names) opened by io::FolderWeights, which reads the index and pairs it with each shard's header. The
// input is split into the index and up to three shards, each part after a 4-byte little-endian length
// (the last shard takes what is left):
//   [len][model.safetensors.index.json][len][model-00001-of-00003.safetensors][len][...00002...][...00003...]
// A part the input runs out before is not written, so a shard the index names may be missing.
// Properties: errors are one line and name the folder; a folder that opens has each tensor the index
// names in the file the index names, each name in one file only, and every tensor reads (with its
// entry's shape) or says why in one line.
#include "fuzz_common.h"
#include "io/folder_weights.h"

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

constexpr const char* kShards[] = {"model-00001-of-00003.safetensors", "model-00002-of-00003.safetensors",
                                   "model-00003-of-00003.safetensors"};

// One folder per fuzzing process, rewritten for every input.
const std::string& folder() {
    static const std::string dir = [] {
        char pattern[] = "/tmp/attnlab-fuzz-shards-XXXXXX";
        const char* made = ::mkdtemp(pattern);
        FUZZ_CHECK(made != nullptr, "mkdtemp failed");
        return std::string(made);
    }();
    return dir;
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    FUZZ_CHECK(f != nullptr, "cannot write " + path);
    FUZZ_CHECK(size == 0 || std::fwrite(data, 1, size, f) == size, "short write to " + path);
    std::fclose(f);
}

// The next part of the input: a 4-byte length, then that many bytes (or what is left). False when no
// length is left to read.
bool next_part(const uint8_t*& data, size_t& size, bool last, std::string& out) {
    if (last) {
        out.assign(reinterpret_cast<const char*>(data), size);
        data += size, size = 0;
        return true;
    }
    if (size < 4) return false;
    const size_t n = std::min<size_t>(size - 4, data[0] | data[1] << 8 | data[2] << 16 | uint32_t(data[3]) << 24);
    out.assign(reinterpret_cast<const char*>(data + 4), n);
    data += 4 + n, size -= 4 + n;
    return true;
}

// The index's weight_map as the reference reads it: tensor name -> file, when the whole index is well formed.
bool reference_map(const std::string& index_text, std::map<std::string, std::string>& out) {
    const auto json = nlohmann::json::parse(index_text, nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("weight_map")) return false;
    const auto& map = json["weight_map"];
    if (!map.is_object()) return false;
    for (const auto& [name, file] : map.items()) {
        if (!file.is_string()) return false;
        out.emplace(name, file.get<std::string>());
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& dir = folder();
    std::string index;
    if (!next_part(data, size, false, index)) return 0;
    write_file(dir + "/model.safetensors.index.json", reinterpret_cast<const uint8_t*>(index.data()), index.size());
    for (int i = 0; i < 3; ++i) {
        const std::string path = dir + "/" + kShards[i];
        std::string shard;
        if (next_part(data, size, i == 2, shard) && !(i == 2 && shard.empty()))
            write_file(path, reinterpret_cast<const uint8_t*>(shard.data()), shard.size());
        else
            std::remove(path.c_str());  // left from the input before
    }

    auto weights = io::FolderWeights::open(dir);
    if (!weights) {
        const std::string& m = weights.error().message;
        FUZZ_CHECK(is_one_line(m), "error is not one line: " + m);
        FUZZ_CHECK(m.find(dir) != std::string::npos, "error does not name the folder: " + m);
        return 0;
    }
    FUZZ_CHECK(weights->source() == dir + "/model.safetensors.index.json",
               "source is not the index: " + weights->source());
    FUZZ_CHECK(weights->file_count() >= 1 && weights->file_count() <= 3, "file count out of range");

    // Every tensor the index names is in the file it names; every name of every file is in one file.
    std::map<std::string, std::string> expected;
    FUZZ_CHECK(reference_map(index, expected), "an index the reference cannot read opened");
    const std::vector<std::string> names = weights->names();
    FUZZ_CHECK(
        std::is_sorted(names.begin(), names.end()) && std::adjacent_find(names.begin(), names.end()) == names.end(),
        "names are not sorted and unique");
    const std::set<std::string> name_set(names.begin(), names.end());
    for (const auto& [name, file] : expected) {
        FUZZ_CHECK(name_set.count(name) == 1, "the index names a tensor no shard has: " + name);
        FUZZ_CHECK(weights->source_of(name) == dir + "/" + file, "tensor " + name + " is not read from " + file);
    }
    std::set<std::string> files;
    for (const std::string& name : names) {
        files.insert(weights->source_of(name));
        const io::SafetensorsEntry& e = weights->entry(name);
        auto t = weights->tensor(name);
        if (!t) {
            FUZZ_CHECK(is_one_line(t.error().message), "tensor error is not one line: " + t.error().message);
            continue;
        }
        FUZZ_CHECK((*t)->shape == e.shape, "tensor " + name + " has another shape than its entry");
    }
    FUZZ_CHECK(files.size() <= weights->file_count(), "a tensor is read from a file the folder did not open");
    return 0;
}
