// A whole file in memory, read-only. On the desktop it is mapped (mmap), so a large weights file is paged in
// as the forward pass reads it instead of being copied; in the web page, which cannot map files, it is read
// into memory (mapped_file_posix.cpp, mapped_file_web.cpp). Shared: tensors that view it keep it alive
// (FloatBuffer::view).
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

    std::span<const uint8_t> bytes() const { return bytes_; }

private:
    struct Storage;  // the platform's hold on the bytes: a mapping, or a copy
    MappedFile(std::span<const uint8_t> bytes, std::unique_ptr<Storage> storage);
    std::span<const uint8_t> bytes_;  // empty for an empty file (mmap cannot map 0 bytes)
    std::unique_ptr<Storage> storage_;
};

}  // namespace attnlab::io
