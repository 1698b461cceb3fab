// POSIX folder listing and atomic folder writes (temporary sibling, fsync, rename; a replaced folder is kept
// under a backup name until the new one is in place).
#include "io/folder_write.h"

#include "io/file_bytes.h"
#include "platform/saved_files.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <filesystem>
#include <system_error>

namespace attnlab::io {
namespace {

Error io_error(const std::string& path, const std::string& what, int err) {
    return Error{display_path(path) + ": " + what + " (" + std::generic_category().message(err) + ")"};
}

// Creates path + suffix + "<pid>-<n>" for the first free n: the folder's name.
Result<std::string> make_sibling_folder(const std::string& path, const std::string& suffix) {
    const std::string stem = path + suffix + std::to_string(::getpid()) + "-";
    constexpr int max_attempts = 100;
    for (int i = 0; i < max_attempts; ++i) {
        const std::string name = stem + std::to_string(i);
        if (::mkdir(name.c_str(), 0777) == 0) return name;
        if (errno != EEXIST) return io_error(path, "cannot create the folder " + display_path(name), errno);
    }
    return Error{display_path(path) + ": cannot create a temporary folder: " + display_path(stem) + "0.." +
                 std::to_string(max_attempts - 1) + " all exist"};
}

// A name for the old folder while the new one takes its place: one that does not exist yet.
Result<std::string> free_sibling_name(const std::string& path, const std::string& suffix) {
    const std::string stem = path + suffix + std::to_string(::getpid()) + "-";
    for (int i = 0; i < 100; ++i) {
        const std::string name = stem + std::to_string(i);
        struct stat info {};
        if (::lstat(name.c_str(), &info) != 0 && errno == ENOENT) return name;
    }
    return Error{display_path(path) + ": cannot find a free name for the folder it replaces"};
}

void remove_folder(const std::string& dir) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
}

}  // namespace

Result<std::vector<FolderEntry>> list_folder(const std::string& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) {
        const int err = errno;
        if (err == ENOENT) return Error{display_path(dir) + ": no such folder"};
        if (err == ENOTDIR) return Error{display_path(dir) + ": is a file, not a folder"};
        return io_error(dir, "cannot list the folder", err);
    }
    std::vector<FolderEntry> entries;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        entries.push_back({name, is_regular_file(dir + "/" + name)});
    }
    ::closedir(d);
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return entries;
}

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa {
    }, sb{};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

Status write_folder_atomic(const std::string& path, const std::vector<FolderFile>& files) {
    std::string dir = path;  // "out/" is "out": its temporary sibling must not land inside it
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    struct stat info {};
    const bool exists = ::stat(dir.c_str(), &info) == 0;
    if (exists && !S_ISDIR(info.st_mode)) return Error{display_path(dir) + ": is a file, not a folder"};
    const std::string parent = std::filesystem::path(dir).parent_path().string();
    if (!parent.empty() && !is_directory(parent)) return Error{display_path(parent) + ": no such folder"};

    auto temp = make_sibling_folder(dir, ".tmp-");
    if (!temp) return temp.error();
    for (const FolderFile& file : files) {
        assert(!file.name.empty() && file.name.find('/') == std::string::npos);
        if (auto st = write_new_file(*temp + "/" + file.name, file.bytes); !st) {
            remove_folder(*temp);
            return st;
        }
    }
    sync_directory(*temp);

    std::string backup;
    if (exists) {
        auto name = free_sibling_name(dir, ".old-");
        if (!name) {
            remove_folder(*temp);
            return name.error();
        }
        backup = *name;
        if (::rename(dir.c_str(), backup.c_str()) != 0) {
            const int err = errno;
            remove_folder(*temp);
            return io_error(dir, "cannot move the old folder aside", err);
        }
    }
    if (::rename(temp->c_str(), dir.c_str()) != 0) {
        const int err = errno;
        if (!backup.empty()) ::rename(backup.c_str(), dir.c_str());
        remove_folder(*temp);
        return io_error(dir, "cannot rename the temporary folder into place", err);
    }
    sync_directory(parent.empty() ? "." : parent);
    if (!backup.empty()) remove_folder(backup);
    for (const FolderFile& file : files) platform::file_saved(dir + "/" + file.name);
    return ok_status();
}

}  // namespace attnlab::io
