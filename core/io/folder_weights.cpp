// One model.safetensors, or the shards of model.safetensors.index.json, behind one set of names.
#include "io/folder_weights.h"

#include "io/file_bytes.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cassert>

namespace attnlab::io {

namespace {

// The shard files the index names, each once, in the order they first appear; and which file holds each tensor.
struct ShardIndex {
    std::vector<std::string> files;
    std::map<std::string, std::string> file_of;
};

Result<ShardIndex> read_index(const std::string& path) {
    const std::string source = display_path(path);
    auto bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    const auto json = nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) return Error{source + ": not a JSON object"};
    const auto map = json.find("weight_map");
    if (map == json.end() || !map->is_object() || map->empty())
        return Error{source + ": no \"weight_map\" object naming each tensor's file"};
    ShardIndex index;
    for (const auto& [name, file] : map->items()) {
        if (!file.is_string()) return Error{source + ": weight_map[" + quote_name(name) + "] is not a file name"};
        const std::string f = file.get<std::string>();
        // A shard lies in the folder itself: no path may lead out of it.
        if (f.empty() || f.find('/') != std::string::npos || f.find('\\') != std::string::npos || f == "." || f == "..")
            return Error{source + ": weight_map[" + quote_name(name) + "] is " + quote_name(f) +
                         ", not a file name in the folder"};
        if (index.file_of.emplace(name, f).second &&
            std::find(index.files.begin(), index.files.end(), f) == index.files.end())
            index.files.push_back(f);
    }
    return index;
}

}  // namespace

Result<FolderWeights> FolderWeights::open(const std::string& dir) {
    FolderWeights weights;
    const std::string single = dir + "/model.safetensors", index_path = dir + "/model.safetensors.index.json";
    if (is_regular_file(single) || !is_regular_file(index_path)) {
        auto file = MappedSafetensors::open(single);
        if (!file) return file.error();
        weights.source_ = file->source();
        for (const auto& [name, entry] : file->entries()) weights.file_of_.emplace(name, 0);
        weights.files_.push_back(std::move(*file));
        return weights;
    }
    auto index = read_index(index_path);
    if (!index) return index.error();
    weights.source_ = display_path(index_path);
    for (const std::string& f : index->files) {
        auto file = MappedSafetensors::open(dir + "/" + f);
        if (!file) return Error{file.error().message + " (a shard named by " + weights.source_ + ")"};
        const size_t at = weights.files_.size();
        for (const auto& [name, entry] : file->entries()) {
            const auto [it, added] = weights.file_of_.emplace(name, at);
            if (!added)
                return Error{file->source() + ": tensor " + quote_name(name) + " is also in " +
                             weights.files_[it->second].source()};
        }
        weights.files_.push_back(std::move(*file));
    }
    for (const auto& [name, f] : index->file_of) {
        const auto it = weights.file_of_.find(name);
        if (it == weights.file_of_.end() || weights.files_[it->second].source() != display_path(dir + "/" + f))
            return Error{weights.source_ + ": places tensor " + quote_name(name) + " in " + f + ", which lacks it"};
    }
    return weights;
}

std::vector<std::string> FolderWeights::names() const {
    std::vector<std::string> out;
    out.reserve(file_of_.size());
    for (const auto& [name, f] : file_of_) out.push_back(name);
    return out;
}

const SafetensorsEntry& FolderWeights::entry(const std::string& name) const {
    const auto it = file_of_.find(name);
    assert(it != file_of_.end());
    return files_[it->second].entries().at(name);
}

Result<std::shared_ptr<const Tensor>> FolderWeights::tensor(const std::string& name, bool keep_bf16) const {
    const auto it = file_of_.find(name);
    assert(it != file_of_.end());
    return files_[it->second].tensor(name, keep_bf16);
}

const std::string& FolderWeights::source_of(const std::string& name) const {
    const auto it = file_of_.find(name);
    assert(it != file_of_.end());
    return files_[it->second].source();
}

}  // namespace attnlab::io
