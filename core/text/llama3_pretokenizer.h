// Llama 3's pre-tokenizer (tiktoken's cl100k_base pattern, which Qwen2 also uses with single digits):
//   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
// matched repeatedly from the start, the first alternative that matches winning. Qwen2's pattern is
// the same with \p{N} for \p{N}{1,3}. Written by hand: std::regex knows neither \p{L} nor \p{N}.
#pragma once

#include "text/text_span.h"

#include <string_view>
#include <vector>

namespace attnlab {

// `text` must be valid UTF-8 (asserted). `max_digits` is 3 for Llama 3, 1 for Qwen2. The spans
// cover the text in order, each at least one code point.
std::vector<TextSpan> llama3_pretokenize(std::string_view text, size_t max_digits);

}  // namespace attnlab
