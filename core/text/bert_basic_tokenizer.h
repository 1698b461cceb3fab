// BERT's text normalization and word splitting (its "BasicTokenizer"), as Hugging Face's
// BertNormalizer and BertPreTokenizer do them, in this order:
//   1. clean: drop U+0000, U+FFFD and every other-category (C*) code point but \t \n \r;
//      white space (White_Space, \t \n \r included) becomes a space;
//   2. put spaces around CJK ideographs (the CJK Unified Ideographs blocks and extensions A-E
//      and the compatibility ideographs; not Hangul, kana or CJK punctuation);
//   3. strip accents (when asked): NFD, then drop nonspacing marks (Mn). NFD decomposes a
//      Hangul syllable into its jamo, so uncased BERT sees 한 as ᄒ ᅡ ᆫ;
//   4. lower-case (when asked), one code point at a time;
//   5. split on white space, and make every punctuation character a word of its own: the P*
//      categories and all ASCII punctuation, including $ + < = > ^ ` | ~ (symbols to Unicode).
// Every normalized code point remembers the code point of the original text it came from.
#pragma once

#include "text/text_span.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct BertNormalization {
    bool lower_case = true;
    bool strip_accents = true;
};

struct BertWord {
    std::string text;               // normalized, UTF-8, not empty
    std::vector<size_t> char_ends;  // byte offset in `text` just past each code point
    std::vector<TextSpan> sources;  // per code point: the original code point's bytes
};

// The words of text[segment], in order; `text` must be valid UTF-8 (asserted) and the segment
// must start and end on code point boundaries. Sources are offsets into `text`.
std::vector<BertWord> bert_basic_tokenize(std::string_view text, TextSpan segment, const BertNormalization& options);

}  // namespace attnlab
