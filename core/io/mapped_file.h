// A whole file mapped read-only into memory (mmap), so a large weights file is paged in as
// the forward pass reads it instead of being copied. Shared: tensors that view the mapping
// keep it alive (FloatBuffer::view).
#pragma once

#include "result.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace attnlab::io {

class MappedFile {
public:
    // Errors name the path (as display_path shows it): missing file, directory, unreadable.
    static Result<std::shared_ptr<const MappedFile>> open(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::span<const uint8_t> bytes() const { return {data_, size_}; }

private:
    MappedFile(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    const uint8_t* data_;  // nullptr for an empty file (mmap cannot map 0 bytes)
    size_t size_;
};

}  // namespace attnlab::io
