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

// Any bytes as valid UTF-8: each ill-formed part (Unicode's "maximal subpart", as Python's
// errors="replace" and Rust's from_utf8_lossy cut them) becomes U+FFFD; the rest is kept.
std::string replace_invalid_utf8(std::string_view bytes);

// The code point starting at byte *i of valid UTF-8 `text`; advances *i past it.
char32_t next_code_point(std::string_view text, size_t* i);

// Appends the UTF-8 form of `c` (asserted: a scalar value, not a surrogate or above U+10FFFF).
void append_utf8(char32_t c, std::string& out);

}  // namespace attnlab
