// Tests for the Unicode data behind the tokenizers: general-category classes, White_Space,
// canonical decomposition and ordering, lower-casing, lossy UTF-8 decoding, code point
// encoding, and cutting text at special tokens. (Every code point was also compared once with
// Python's unicodedata; these pin the cases the tokenizers depend on.)
#include "text/special_token_split.h"
#include "text/unicode_category.h"
#include "text/unicode_normalization.h"
#include "text/utf8.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace attnlab;

namespace {

std::u32string decomposition(char32_t c) {
    std::u32string out;
    append_canonical_decomposition(c, out);
    return out;
}

std::u32string lowercase(char32_t c) {
    std::u32string out;
    append_lowercase(c, out);
    return out;
}

}  // namespace

TEST_CASE("unicode: general-category classes and White_Space", "[text][unicode]") {
    using C = CharCategory;
    CHECK(char_category(U'A') == C::letter);
    CHECK(char_category(U'한') == C::letter);  // Lo
    CHECK(char_category(U'ʰ') == C::letter);   // Lm
    CHECK(char_category(U'7') == C::number);
    CHECK(char_category(U'²') == C::number);  // No
    CHECK(char_category(U'Ⅻ') == C::number);  // Nl
    CHECK(char_category(0x0301) == C::nonspacing_mark);
    CHECK(char_category(0x1D165) == C::symbol_or_spacing_mark);  // Mc
    CHECK(char_category(U'!') == C::punctuation);
    CHECK(char_category(U'«') == C::punctuation);             // Pi
    CHECK(char_category(U'$') == C::symbol_or_spacing_mark);  // Sc
    CHECK(char_category(U'😀') == C::symbol_or_spacing_mark);  // So
    CHECK(char_category(0x3000) == C::separator);
    CHECK(char_category(0x2029) == C::separator);  // Zp
    CHECK(char_category(0x00) == C::other);
    CHECK(char_category(0x00AD) == C::other);  // Cf
    CHECK(char_category(0xE000) == C::other);  // Co
    CHECK(char_category(0x0378) == C::other);  // unassigned
    CHECK(char_category(0x10FFFF) == C::other);
    CHECK(char_category(0x110000) == C::other);

    for (char32_t c : {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F,
                       0x205F, 0x3000}) {
        CHECK(is_white_space(c));
    }
    for (char32_t c : {0x08, 0x1C, 0x1F, 0x200B, 0x180E, 0xFEFF, 0x41}) CHECK_FALSE(is_white_space(c));
}

TEST_CASE("unicode: canonical decomposition, Hangul included", "[text][unicode]") {
    CHECK(decomposition(U'é') == U"e\u0301");
    CHECK(decomposition(0x212B) == U"A\u030A");                   // ANGSTROM SIGN, through Å
    CHECK(decomposition(0x1E69) == U"s\u0323\u0307");             // ṩ, recursively and in canonical order
    CHECK(decomposition(0x1F82) == U"\u03B1\u0313\u0300\u0345");  // four code points
    CHECK(decomposition(U'한') == U"\u1112\u1161\u11AB");         // L V T
    CHECK(decomposition(U'가') == U"\u1100\u1161");               // L V, no trailing consonant
    CHECK(decomposition(0xD7A3) == U"\u1112\u1175\u11C2");        // the last syllable
    CHECK(decomposition(U'a') == U"a");
    CHECK(decomposition(U'ᄒ') == U"ᄒ");
    CHECK(decomposition(0xFB01) == U"\uFB01");  // ﬁ: compatibility only, not canonical
}

TEST_CASE("unicode: combining classes and canonical ordering", "[text][unicode]") {
    CHECK(canonical_combining_class(U'a') == 0);
    CHECK(canonical_combining_class(0x0301) == 230);
    CHECK(canonical_combining_class(0x0316) == 220);
    CHECK(canonical_combining_class(0x0345) == 240);
    CHECK(canonical_combining_class(0x1D165) == 216);
    CHECK(canonical_combining_class(0x10FFFF) == 0);

    std::vector<char32_t> text = {U'a', 0x0301, 0x0316, 0x0300, 0x0315, U'b', 0x0301, 0x0316};
    canonical_order(text, [](char32_t c) { return c; });
    // Each run of non-starters sorted by class (220 < 230 < 232), equal classes kept in order.
    CHECK(text == std::vector<char32_t>{U'a', 0x0316, 0x0301, 0x0300, 0x0315, U'b', 0x0316, 0x0301});
}

TEST_CASE("unicode: lower case, one code point at a time", "[text][unicode]") {
    CHECK(lowercase(U'A') == U"a");
    CHECK(lowercase(U'Ā') == U"ā");  // Latin Extended-A alternates upper, lower
    CHECK(lowercase(U'ā') == U"ā");
    CHECK(lowercase(U'Σ') == U"σ");  // never ς: no final-sigma context
    CHECK(lowercase(U'İ') == U"i\u0307");
    CHECK(lowercase(0x1E9E) == U"ß");
    CHECK(lowercase(U'Ꭰ') == U"ꭰ");            // Cherokee: lower case far above
    CHECK(lowercase(0x1E921) == U"\U0001E943");  // Adlam, the last mapping
    CHECK(lowercase(U'한') == U"한");
}

TEST_CASE("utf8: lossy decoding replaces each maximal ill-formed part", "[text][utf8]") {
    const std::string r = "\xEF\xBF\xBD";
    CHECK(replace_invalid_utf8("plain 사과") == "plain 사과");
    CHECK(replace_invalid_utf8("a\xFF"
                               "b") == "a" + r + "b");
    CHECK(replace_invalid_utf8("\xE3\x80"
                               "A") == r + "A");               // a cut 3-byte sequence: one
    CHECK(replace_invalid_utf8("\xF0\x9F\x98") == r);          // a cut 4-byte sequence: one
    CHECK(replace_invalid_utf8("\xED\xA0\x80") == r + r + r);  // surrogate: ED cannot go on with A0
    CHECK(replace_invalid_utf8("\xC0\xAF") == r + r);          // overlong
    CHECK(replace_invalid_utf8("\x80\x80") == r + r);
    CHECK(replace_invalid_utf8("\xF4\x90\x80\x80") == r + r + r + r);  // above U+10FFFF
}

TEST_CASE("utf8: code points to UTF-8 and back at every length's edges", "[text][utf8]") {
    for (char32_t c : {0x0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF}) {
        std::string s;
        append_utf8(c, s);
        CHECK(is_valid_utf8(s));
        size_t i = 0;
        CHECK(next_code_point(s, &i) == c);
        CHECK(i == s.size());
    }
    std::string s;
    append_utf8(U'한', s);
    CHECK(s == "한");
}

TEST_CASE("special tokens: leftmost first, the longest at one place", "[text][tokenizer]") {
    const std::vector<SpecialToken> specials = {{"[SEP]", 1}, {"<s>", 2}, {"<s><s>", 3}};
    const auto cut = [&](std::string_view text) {
        std::vector<std::string> out;
        for (const TextSegment& s : split_special_tokens(text, specials)) {
            out.push_back((s.special_id ? "#" + std::to_string(*s.special_id) + ":" : "") +
                          std::string(text.substr(s.span.begin, s.span.end - s.span.begin)));
        }
        return out;
    };
    using V = std::vector<std::string>;
    CHECK(cut("a[SEP]b") == V{"a", "#1:[SEP]", "b"});
    CHECK(cut("[SEP][SEP]") == V{"#1:[SEP]", "#1:[SEP]"});
    CHECK(cut("<s><s><s>x") == V{"#3:<s><s>", "#2:<s>", "x"});
    CHECK(cut("[SEP x <s") == V{"[SEP x <s"});
    CHECK(cut("").empty());
    CHECK(split_special_tokens("abc", {}).size() == 1);
}
