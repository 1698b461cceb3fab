// Cutting a text at the special tokens it spells out (GPT-2's <|endoftext|>, BERT's [MASK]),
// before any normalization, as Hugging Face's tokenizers do with their added tokens.
#pragma once

#include "text/text_span.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct SpecialToken {
    std::string text;
    int id = 0;
};

struct TextSegment {
    TextSpan span;
    std::optional<int> special_id;  // set when the segment is a special token
};

// The text as segments in order, covering it: every exact occurrence of a special token is one
// (the leftmost first, the longest of those starting at one byte), the text between them the
// others (never empty).
std::vector<TextSegment> split_special_tokens(std::string_view text, const std::vector<SpecialToken>& specials);

}  // namespace attnlab
