// mmap(PROT_READ, MAP_PRIVATE) of a whole file; the descriptor is closed once mapped.
#include "io/mapped_file.h"

#include "io/file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace attnlab::io {

struct MappedFile::Storage {
    Storage(void* mapping, size_t size) : mapping(mapping), size(size) {}
    Storage(const Storage&) = delete;  // one owner unmaps, once
    Storage& operator=(const Storage&) = delete;
    ~Storage() { ::munmap(mapping, size); }
    void* mapping;
    size_t size;
};

MappedFile::MappedFile(std::span<const uint8_t> bytes, std::unique_ptr<Storage> storage)
    : bytes_(bytes), storage_(std::move(storage)) {}

MappedFile::~MappedFile() = default;

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
    const auto fail = [&](const std::string& what, int err) {
        return Error{display_path(path) + ": " + what + " (" + std::generic_category().message(err) + ")"};
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return Error{display_path(path) + ": no such file"};
        return fail("cannot open for reading", errno);
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        const int err = errno;
        ::close(fd);
        return fail("cannot stat", err);
    }
    if (S_ISDIR(info.st_mode)) {
        ::close(fd);
        return Error{display_path(path) + ": is a directory, not a file"};
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd);
        return Error{display_path(path) + ": not a regular file, cannot be mapped"};
    }
    const auto size = static_cast<size_t>(info.st_size);
    void* data = nullptr;
    if (size > 0) {
        data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            return fail("cannot map into memory", err);
        }
    }
    ::close(fd);  // the mapping stays valid without the descriptor
    auto storage = data ? std::make_unique<Storage>(data, size) : nullptr;
    return std::shared_ptr<const MappedFile>(
        new MappedFile({static_cast<const uint8_t*>(data), size}, std::move(storage)));
}

}  // namespace attnlab::io
