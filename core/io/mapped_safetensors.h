// A .safetensors file mapped, not read: its header is parsed and checked up front, and a
// tensor is read only when asked for. An F32 tensor (little-endian, 4-byte aligned, as every
// writer lays it out) is a read-only view of the mapping; F16 is decoded into a copy, and so is BF16 unless
// asked for as BF16 (a linear map's weight or an embedding table: Tensor::bf16, a view where 2-byte aligned).
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
    // keep_bf16: a BF16 entry stays BF16 (Tensor::bf16) instead of being widened to F32.
    Result<std::shared_ptr<const Tensor>> tensor(const std::string& name, bool keep_bf16 = false) const;

private:
    std::shared_ptr<const MappedFile> file_;
    std::span<const uint8_t> buffer_;  // the data buffer inside file_
    std::map<std::string, SafetensorsEntry> entries_;
    std::map<std::string, std::string> metadata_;
    std::string source_;
};

}  // namespace attnlab::io
