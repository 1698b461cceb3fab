// UTF-8 checks and code-point splitting, strict as RFC 3629 asks: no overlong forms,
// no surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no truncated sequences.
#pragma once

#include "result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

bool is_valid_utf8(std::string_view text);

// One string per code point, e.g. "사과" -> {"사", "과"}. The error names the byte offset
// of the first bad sequence and why it is bad.
Result<std::vector<std::string>> split_code_points(std::string_view text);

// Number of code points; `text` must be valid UTF-8.
size_t count_code_points(std::string_view text);

}  // namespace attnlab
