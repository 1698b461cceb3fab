// TextSpan: a range of bytes [begin, end) in a text, e.g. the source of one token.
#pragma once

#include <cstddef>

namespace attnlab {

struct TextSpan {
    size_t begin = 0;
    size_t end = 0;  // one past the last byte; begin == end is an empty span
    bool operator==(const TextSpan&) const = default;
};

}  // namespace attnlab
