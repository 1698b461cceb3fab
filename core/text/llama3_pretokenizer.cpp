// Llama 3's pattern as a hand-written matcher over code points. At each position the alternatives
// are tried in the pattern's order:
//   1. 's 't 're 've 'm 'll 'd, ASCII letters in either case ('S, 'Ll)
//   2. one character that is not \r, \n, a letter or a number, then a run of letters; or just the run
//   3. one to max_digits numbers
//   4. an optional space U+0020, a run of what is neither white space, letter nor number, then any \r \n
//   5. \s*[\r\n]+: white space up to and including the last \r or \n of its run
//   6. \s+(?!\S): a run of white space, minus its last character when a non-space follows it
//   7. \s+: the whole run (reached when 6 fails: a single white-space character before a non-space)
#include "text/llama3_pretokenizer.h"

#include "text/unicode_category.h"
#include "text/utf8.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace attnlab {

namespace {

enum class CharClass : uint8_t { letter, number, space, other };

struct Char {
    char32_t c;
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

bool is_line_break(char32_t c) { return c == U'\r' || c == U'\n'; }

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Length in bytes of a contraction at byte i, any case ('s 'T 're 'VE ...), or 0.
size_t contraction_length(std::string_view text, size_t i) {
    if (text[i] != '\'' || i + 1 >= text.size()) return 0;
    const char a = ascii_lower(text[i + 1]);
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    if (i + 2 >= text.size()) return 0;
    const char b = ascii_lower(text[i + 2]);
    return (a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l') ? 3 : 0;
}

}  // namespace

std::vector<TextSpan> llama3_pretokenize(std::string_view text, size_t max_digits) {
    assert(is_valid_utf8(text) && max_digits >= 1);
    std::vector<Char> chars;
    for (size_t i = 0; i < text.size();) {
        const size_t offset = i;
        const char32_t c = next_code_point(text, &i);
        chars.push_back({c, classify(c), offset});
    }
    const size_t n = chars.size();
    const auto offset_of = [&](size_t k) { return k < n ? chars[k].offset : text.size(); };
    const auto is = [&](size_t k, CharClass cls) { return k < n && chars[k].cls == cls; };
    // End (in chars) of the run from `from` of characters that satisfy `keep`.
    const auto run_end = [&](size_t from, auto keep) {
        while (from < n && keep(chars[from])) ++from;
        return from;
    };
    const auto of_class = [](CharClass cls) { return [cls](const Char& ch) { return ch.cls == cls; }; };
    const auto line_break = [](const Char& ch) { return is_line_break(ch.c); };

    std::vector<TextSpan> spans;
    for (size_t k = 0; k < n;) {
        const Char& ch = chars[k];
        size_t end = k;  // end of this match, in chars
        if (const size_t bytes = contraction_length(text, ch.offset); bytes > 0) {
            end = k + bytes;  // all ASCII: one char per byte
        } else if (ch.cls == CharClass::letter) {
            end = run_end(k, of_class(CharClass::letter));
        } else if (ch.cls != CharClass::number && !is_line_break(ch.c) && is(k + 1, CharClass::letter)) {
            end = run_end(k + 1, of_class(CharClass::letter));
        } else if (ch.cls == CharClass::number) {
            end = std::min(run_end(k, of_class(CharClass::number)), k + max_digits);
        } else if (ch.cls == CharClass::other || (ch.c == U' ' && is(k + 1, CharClass::other))) {
            const size_t first_other = ch.cls == CharClass::other ? k : k + 1;
            end = run_end(run_end(first_other, of_class(CharClass::other)), line_break);
        } else {
            const size_t run = run_end(k, of_class(CharClass::space));
            size_t last_break = run;  // the last \r or \n of the run, if any
            for (size_t j = k; j < run; ++j)
                if (is_line_break(chars[j].c)) last_break = j;
            if (last_break < run) {
                end = last_break + 1;  // alternative 5
            } else {
                end = run == n || run - k == 1 ? run : run - 1;  // 6, or 7 for a lone one before a non-space
            }
        }
        spans.push_back({offset_of(k), offset_of(end)});
        k = end;
    }
    return spans;
}

}  // namespace attnlab
