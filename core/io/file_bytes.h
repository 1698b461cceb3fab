// Whole-file reads, and writes that replace a file atomically (temp file, fsync, rename),
// so a crash or a full disk never leaves a half-written file behind.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "result.h"

namespace attnlab::io {

// Errors name the path: missing file, directory, unreadable.
Result<std::vector<uint8_t>> read_file_bytes(const std::string& path);

// Writes `path + ".tmp-<pid>-<n>"` in the same directory, fsyncs it and renames it over
// path. On any failure the temp file is removed and the old file at path is untouched.
Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace attnlab::io
