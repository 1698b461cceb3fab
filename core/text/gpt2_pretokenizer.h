// GPT-2's pre-tokenizer: the text cut into the words that BPE then works on, as GPT-2's pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// cuts it, matching repeatedly from the start, the first alternative that matches winning.
// Written by hand: std::regex knows neither \p{L} nor \p{N}.
#pragma once

#include "text/text_span.h"

#include <string_view>
#include <vector>

namespace attnlab {

// `text` must be valid UTF-8 (asserted). The spans cover it in order, each at least one code point.
std::vector<TextSpan> gpt2_pretokenize(std::string_view text);

}  // namespace attnlab
