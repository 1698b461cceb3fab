#include "text/bloom_pretokenizer.h"

#include "text/unicode_category.h"
#include "text/utf8.h"

#include <cassert>

namespace attnlab {

namespace {

// Whether a code point may be in a word: not white space and not one of the pattern's marks.
bool in_word(char32_t c) {
    if (is_white_space(c)) return false;
    for (const char32_t mark : {U'(', U'|', U')', U'.', U',', U'!', U'?', U'…', U'。', U'，', U'、', U'।', U'۔', U'،'})
        if (c == mark) return false;
    return true;
}

}  // namespace

std::vector<TextSpan> bloom_pretokenize(std::string_view text) {
    assert(is_valid_utf8(text));
    std::vector<size_t> offsets;  // of each code point, then the text's end
    std::vector<char> word;       // in_word of each code point
    for (size_t i = 0; i < text.size();) {
        offsets.push_back(i);
        word.push_back(in_word(next_code_point(text, &i)) ? 1 : 0);
    }
    const size_t n = word.size();
    offsets.push_back(text.size());
    std::vector<TextSpan> spans;
    size_t gap = 0;  // where the text since the last match begins
    for (size_t k = 0; k < n;) {
        // A match at k: a word run, or a space with a word run after it.
        const size_t run = word[k] ? k : (text[offsets[k]] == ' ' && k + 1 < n && word[k + 1]) ? k + 1 : n;
        if (run == n) {
            ++k;
            continue;
        }
        size_t end = run;
        while (end < n && word[end]) ++end;
        if (gap < k) spans.push_back({offsets[gap], offsets[k]});
        spans.push_back({offsets[k], offsets[end]});
        gap = k = end;
    }
    if (gap < n) spans.push_back({offsets[gap], offsets[n]});
    return spans;
}

}  // namespace attnlab
