// A .safetensors file mapped, not read: its header is parsed and checked up front, and a
// tensor is read only when asked for. An F32 tensor (little-endian, 4-byte aligned, as every
// writer lays it out) is a read-only view of the mapping; F16/BF16 are decoded into a copy.
#pragma once

#include "io/mapped_file.h"
#include "io/safetensors_header.h"

#include <map>
#include <memory>

namespace attnlab::io {

class MappedSafetensors {
public:
    // Any dtype safetensors names may appear (DtypePolicy::any_known); only tensor() cares.
    static Result<MappedSafetensors> open(const std::string& path);

    const std::string& source() const { return source_; }  // the path, as display_path shows it
    const std::map<std::string, SafetensorsEntry>& entries() const { return entries_; }
    const std::map<std::string, std::string>& metadata() const { return metadata_; }
    // The named entry's values (asserts it exists); an error for a dtype that is not F32/F16/BF16.
    Result<std::shared_ptr<const Tensor>> tensor(const std::string& name) const;

private:
    std::shared_ptr<const MappedFile> file_;
    std::span<const uint8_t> buffer_;  // the data buffer inside file_
    std::map<std::string, SafetensorsEntry> entries_;
    std::map<std::string, std::string> metadata_;
    std::string source_;
};

}  // namespace attnlab::io
