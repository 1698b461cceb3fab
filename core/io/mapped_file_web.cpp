// The web page cannot map a file: its bytes are read once into a 64-byte-aligned block (a mapping is
// page-aligned, and the kernels load whole vectors of the tensors that view it).
#include "io/file_bytes.h"
#include "io/mapped_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace attnlab::io {

struct MappedFile::Storage {
    explicit Storage(void* copy) : copy(copy) {}
    Storage(const Storage&) = delete;  // one owner frees, once
    Storage& operator=(const Storage&) = delete;
    ~Storage() { std::free(copy); }
    void* copy;
};

MappedFile::MappedFile(std::span<const uint8_t> bytes, std::unique_ptr<Storage> storage)
    : bytes_(bytes), storage_(std::move(storage)) {}

MappedFile::~MappedFile() = default;

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        if (errno == ENOENT) return Error{display_path(path) + ": no such file"};
        return Error{display_path(path) + ": cannot stat (" + std::generic_category().message(errno) + ")"};
    }
    if (S_ISDIR(info.st_mode)) return Error{display_path(path) + ": is a directory, not a file"};
    if (!S_ISREG(info.st_mode)) return Error{display_path(path) + ": not a regular file, cannot be read whole"};
    const auto size = static_cast<size_t>(info.st_size);
    if (size == 0) return std::shared_ptr<const MappedFile>(new MappedFile({}, nullptr));

    auto storage = std::make_unique<Storage>(std::aligned_alloc(64, (size + 63) / 64 * 64));
    if (!storage->copy)
        return Error{display_path(path) + ": not enough memory to read its " + std::to_string(size >> 20) + " MB"};
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return Error{display_path(path) + ": cannot open for reading (" + std::generic_category().message(errno) + ")"};
    const size_t n_read = std::fread(storage->copy, 1, size, f);
    std::fclose(f);
    if (n_read != size) return Error{display_path(path) + ": cannot read (the file is shorter than its size)"};
    const std::span<const uint8_t> bytes(static_cast<const uint8_t*>(storage->copy), size);
    return std::shared_ptr<const MappedFile>(new MappedFile(bytes, std::move(storage)));
}

}  // namespace attnlab::io
