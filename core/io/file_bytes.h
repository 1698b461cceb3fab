// Whole-file reads, what a path is, and writes that replace a file atomically (temp file,
// fsync, rename), so a crash or a full disk never leaves a half-written file behind.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "result.h"

namespace attnlab::io {

// A path as error messages show it: control characters (a newline in a file name) and bytes
// that are not UTF-8 become \xNN, so a message stays one line of valid UTF-8.
std::string display_path(std::string_view path);

// Errors name the path (as display_path shows it): missing file, directory, unreadable.
Result<std::vector<uint8_t>> read_file_bytes(const std::string& path);

bool is_directory(const std::string& path);     // false for anything that is not (or cannot be seen)
bool is_regular_file(const std::string& path);  // likewise; symbolic links are followed

// Writes `path + ".tmp-<pid>-<n>"` in the same directory, fsyncs it and renames it over
// path. On any failure the temp file is removed and the old file at path is untouched.
Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);

// Creates path, which must not exist yet, writes every byte and fsyncs it; on failure the file is removed.
Status write_new_file(const std::string& path, std::span<const uint8_t> bytes);

// Best effort: fsyncs a directory, so the renames and creations in it are durable (some file systems refuse).
void sync_directory(const std::string& dir);

}  // namespace attnlab::io
