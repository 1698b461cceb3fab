// BERT's normalization as passes over code points that each carry their source span, then the
// split into words.
#include "text/bert_basic_tokenizer.h"

#include "text/unicode_category.h"
#include "text/unicode_normalization.h"
#include "text/utf8.h"

#include <cassert>

namespace attnlab {

namespace {

struct SourcedChar {
    char32_t c;
    TextSpan source;
};
using SourcedText = std::vector<SourcedChar>;

bool is_cjk_ideograph(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

bool is_tab_or_newline(char32_t c) { return c == '\t' || c == '\n' || c == '\r'; }

bool is_punctuation(char32_t c) {
    const bool ascii = (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
    return ascii || char_category(c) == CharCategory::punctuation;
}

// Steps 1 and 2: clean, and space out CJK ideographs.
SourcedText clean(std::string_view text, TextSpan segment) {
    SourcedText out;
    for (size_t i = segment.begin; i < segment.end;) {
        const size_t begin = i;
        const char32_t c = next_code_point(text, &i);
        const TextSpan span{begin, i};
        const bool control = !is_tab_or_newline(c) && char_category(c) == CharCategory::other;
        if (c == 0 || c == 0xFFFD || control) continue;
        if (is_white_space(c)) {
            out.push_back({' ', span});
        } else if (is_cjk_ideograph(c)) {
            out.insert(out.end(), {{' ', span}, {c, span}, {' ', span}});
        } else {
            out.push_back({c, span});
        }
    }
    return out;
}

// Step 3: NFD, then drop nonspacing marks.
SourcedText strip_accents(const SourcedText& in) {
    SourcedText out;
    std::u32string parts;
    for (const SourcedChar& ch : in) {
        parts.clear();
        append_canonical_decomposition(ch.c, parts);
        for (char32_t part : parts) out.push_back({part, ch.source});
    }
    canonical_order(out, [](const SourcedChar& ch) { return ch.c; });
    std::erase_if(out, [](const SourcedChar& ch) { return char_category(ch.c) == CharCategory::nonspacing_mark; });
    return out;
}

// Step 4.
SourcedText lower_case(const SourcedText& in) {
    SourcedText out;
    std::u32string lower;
    for (const SourcedChar& ch : in) {
        lower.clear();
        append_lowercase(ch.c, lower);
        for (char32_t c : lower) out.push_back({c, ch.source});
    }
    return out;
}

void append_char(BertWord& word, const SourcedChar& ch) {
    append_utf8(ch.c, word.text);
    word.char_ends.push_back(word.text.size());
    word.sources.push_back(ch.source);
}

}  // namespace

std::vector<BertWord> bert_basic_tokenize(std::string_view text, TextSpan segment, const BertNormalization& options) {
    assert(segment.begin <= segment.end && segment.end <= text.size());
    assert(is_valid_utf8(text.substr(segment.begin, segment.end - segment.begin)));
    SourcedText normalized = clean(text, segment);
    if (options.strip_accents) normalized = strip_accents(normalized);
    if (options.lower_case) normalized = lower_case(normalized);

    // Step 5.
    std::vector<BertWord> words;
    bool in_word = false;  // whether words.back() is still growing
    for (const SourcedChar& ch : normalized) {
        if (is_white_space(ch.c)) {
            in_word = false;
        } else if (is_punctuation(ch.c)) {
            append_char(words.emplace_back(), ch);
            in_word = false;
        } else {
            if (!in_word) words.emplace_back();
            append_char(words.back(), ch);
            in_word = true;
        }
    }
    return words;
}

}  // namespace attnlab
