// POSIX file reading and atomic replacement (write temp, fsync, rename, fsync directory).
#include "io/file_bytes.h"

#include "platform/saved_files.h"
#include "text/utf8.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace attnlab::io {
namespace {

Error io_error(const std::string& path, const std::string& what, int err) {
    return Error{display_path(path) + ": " + what + " (" + std::generic_category().message(err) + ")"};
}

// Closes a file descriptor when it goes out of scope.
struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
};

// Writes every byte to fd, retrying short and interrupted writes, then fsyncs and closes it.
Status write_sync_close(int fd, std::span<const uint8_t> bytes, const std::string& path) {
    size_t n_written = 0;
    while (n_written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + n_written, bytes.size() - n_written);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            return io_error(path, "cannot write temporary file", err);
        }
        n_written += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        return io_error(path, "cannot fsync temporary file", err);
    }
    if (::close(fd) != 0) return io_error(path, "cannot close temporary file", errno);
    return ok_status();
}

// Best effort: makes the rename itself durable.
void sync_parent_directory(const std::string& path) {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    sync_directory(dir.empty() ? "." : dir);
}

}  // namespace

std::string display_path(std::string_view path) {
    std::string out;
    out.reserve(path.size());
    for (size_t i = 0; i < path.size();) {
        const auto u = static_cast<unsigned char>(path[i]);
        const size_t n = u < 0x80 ? 1 : (u & 0xE0) == 0xC0 ? 2 : (u & 0xF0) == 0xE0 ? 3 : (u & 0xF8) == 0xF0 ? 4 : 0;
        const bool printable_ascii = n == 1 && u >= 0x20 && u != 0x7F;
        if (printable_ascii || (n > 1 && i + n <= path.size() && is_valid_utf8(path.substr(i, n)))) {
            out.append(path.substr(i, n));
            i += n;
            continue;
        }
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\x%02X", u);
        out += escaped;
        ++i;
    }
    return out;
}

Result<std::vector<uint8_t>> read_file_bytes(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT) return Error{display_path(path) + ": no such file"};
        return io_error(path, "cannot open for reading", err);
    }
    const FdCloser closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0) return io_error(path, "cannot stat", errno);
    if (S_ISDIR(info.st_mode)) return Error{display_path(path) + ": is a directory, not a file"};

    std::vector<uint8_t> bytes;
    if (S_ISREG(info.st_mode)) bytes.reserve(static_cast<size_t>(info.st_size));
    std::array<uint8_t, 16384> chunk;
    for (;;) {
        const ssize_t n = ::read(fd, chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return io_error(path, "cannot read", errno);
        if (n == 0) break;
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
    }
    return bytes;
}

bool is_directory(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool is_regular_file(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes) {
    // A temp name no other writer holds: O_EXCL claims the first free counter for this pid.
    const std::string stem = path + ".tmp-" + std::to_string(::getpid()) + "-";
    constexpr int max_attempts = 100;
    std::string temp_path;
    int fd = -1;
    for (int i = 0; i < max_attempts && fd < 0; ++i) {
        temp_path = stem + std::to_string(i);
        fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            return io_error(path, "cannot create temporary file " + display_path(temp_path), errno);
    }
    if (fd < 0)
        return Error{display_path(path) + ": cannot create a temporary file: " + display_path(stem) + "0.." +
                     std::to_string(max_attempts - 1) + " all exist"};

    const Status written = write_sync_close(fd, bytes, path);
    if (!written) {
        ::unlink(temp_path.c_str());
        return written;
    }
    if (::rename(temp_path.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp_path.c_str());
        return io_error(path, "cannot replace with temporary file", err);
    }
    sync_parent_directory(path);
    platform::file_saved(path);
    return ok_status();
}

Status write_new_file(const std::string& path, std::span<const uint8_t> bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return io_error(path, "cannot create", errno);
    const Status written = write_sync_close(fd, bytes, path);
    if (!written) ::unlink(path.c_str());
    return written;
}

void sync_directory(const std::string& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace attnlab::io
