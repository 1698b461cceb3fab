// A folder's listing, and writing a whole folder atomically: the files go into a temporary sibling folder,
// which is fsynced and renamed into place, so a crash or a full disk never leaves a half-written folder, and a
// folder being replaced stays whole until its successor is.
#pragma once

#include "result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::io {

struct FolderEntry {
    std::string name;      // "config.json"
    bool is_file = false;  // a regular file (a symbolic link to one counts); false: a folder or anything else
};

// The entries of a folder, sorted by name, without "." and "..". Errors name the path: missing, not a folder,
// unreadable.
Result<std::vector<FolderEntry>> list_folder(const std::string& dir);

// Whether two paths name the same existing file or folder (the same device and inode).
bool same_file(const std::string& a, const std::string& b);

struct FolderFile {
    std::string name;  // a plain file name, no '/'
    std::vector<uint8_t> bytes;
};

// Writes `files` into dir + ".tmp-<pid>-<n>", fsyncs them and the folder, and renames it to dir. An existing
// folder at dir is replaced whole (the caller decides that it may be): it is renamed to dir + ".old-<pid>-<n>",
// the new folder renamed in, and the old one then removed. On any failure the temporary folder is removed and
// whatever was at dir is left as it was. A file (not a folder) at dir, or a parent that is missing or
// unwritable, is a one-line error naming the path.
Status write_folder_atomic(const std::string& dir, const std::vector<FolderFile>& files);

}  // namespace attnlab::io
