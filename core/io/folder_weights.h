// A Hugging Face folder's weights: model.safetensors, or the shards that model.safetensors.index.json
// names (the hub splits checkpoints above a few GB into model-00001-of-00002.safetensors, …). Every file is
// mapped (mapped_safetensors.h) and a tensor is read from its own file when asked. Either every file opens
// or none does: an index that cannot be read, a shard missing or damaged, a tensor the index places in a
// shard that lacks it, or one name in two shards, is one line naming the file at fault.
#pragma once

#include "io/mapped_safetensors.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attnlab::io {

class FolderWeights {
public:
    // dir/model.safetensors when it exists, else the shards of dir/model.safetensors.index.json.
    static Result<FolderWeights> open(const std::string& dir);

    std::vector<std::string> names() const;                                       // every tensor of every file, sorted
    const SafetensorsEntry& entry(const std::string& name) const;                 // asserts the name exists
    // From its own file; keep_bf16 as MappedSafetensors::tensor's.
    Result<std::shared_ptr<const Tensor>> tensor(const std::string& name, bool keep_bf16 = false) const;
    const std::string& source_of(const std::string& name) const;                  // its file, as display_path shows it
    size_t file_count() const { return files_.size(); }
    const std::string& source() const { return source_; }  // model.safetensors, or the index

private:
    std::vector<MappedSafetensors> files_;
    std::map<std::string, size_t> file_of_;  // tensor name -> index into files_
    std::string source_;
};

}  // namespace attnlab::io
