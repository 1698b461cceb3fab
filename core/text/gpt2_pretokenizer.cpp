// GPT-2's pattern as a hand-written matcher over code points. At each position the alternatives
// are tried in the pattern's order:
//   1. 's 't 're 've 'm 'll 'd   (ASCII apostrophe, lower case only)
//   2-4. an optional space U+0020, then a run of letters, of numbers, or of anything else that
//        is not white space (the space is taken only if the run after it is not empty)
//   5. \s+(?!\S): a run of white space, minus its last character when a non-space follows it
//   6. \s+: the whole run (reached when 5 fails: a single white-space character before a non-space)
#include "text/gpt2_pretokenizer.h"

#include "text/unicode_category.h"
#include "text/utf8.h"

#include <cassert>
#include <cstdint>

namespace attnlab {

namespace {

enum class CharClass : uint8_t { letter, number, space, other };

struct Char {
    CharClass cls;
    size_t offset;  // of its first byte
};

CharClass classify(char32_t c) {
    if (is_white_space(c)) return CharClass::space;
    switch (char_category(c)) {
        case CharCategory::letter: return CharClass::letter;
        case CharCategory::number: return CharClass::number;
        default: return CharClass::other;
    }
}

// Length in bytes of a contraction ('s 't 're 've 'm 'll 'd) at byte i, or 0.
size_t contraction_length(std::string_view text, size_t i) {
    if (text[i] != '\'' || i + 1 >= text.size()) return 0;
    const char a = text[i + 1];
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    if (i + 2 >= text.size()) return 0;
    const std::string_view two = text.substr(i + 1, 2);
    return two == "re" || two == "ve" || two == "ll" ? 3 : 0;
}

}  // namespace

std::vector<TextSpan> gpt2_pretokenize(std::string_view text) {
    assert(is_valid_utf8(text));
    std::vector<Char> chars;
    for (size_t i = 0; i < text.size();) {
        const size_t offset = i;
        chars.push_back({classify(next_code_point(text, &i)), offset});
    }
    const size_t n = chars.size();
    const auto offset_of = [&](size_t k) { return k < n ? chars[k].offset : text.size(); };
    // End (in chars) of the run of characters of class `cls` that starts at `from`.
    const auto run_end = [&](size_t from, CharClass cls) {
        while (from < n && chars[from].cls == cls) ++from;
        return from;
    };

    std::vector<TextSpan> spans;
    for (size_t k = 0; k < n;) {
        const size_t begin = offset_of(k);
        size_t end_char = k;  // end of this match, in chars
        if (const size_t bytes = contraction_length(text, begin); bytes > 0) {
            end_char = k + bytes;  // all ASCII: one char per byte
        } else if (chars[k].cls != CharClass::space) {
            // Alternatives 2-4 without the space: a run of this character's class.
            end_char = run_end(k, chars[k].cls);
        } else if (text[begin] == ' ' && k + 1 < n && chars[k + 1].cls != CharClass::space) {
            // Alternatives 2-4 with the space: a run of the next character's class.
            end_char = run_end(k + 1, chars[k + 1].cls);
        } else {
            // Alternative 5, or 6 for a lone white-space character before a non-space.
            const size_t run = run_end(k, CharClass::space);
            end_char = run == n || run - k == 1 ? run : run - 1;
        }
        spans.push_back({begin, offset_of(end_char)});
        k = end_char;
    }
    return spans;
}

}  // namespace attnlab
