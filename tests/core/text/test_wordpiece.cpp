// Tests for BERT's WordPiece over tests/fixtures/tokenizers/bert/vocab.txt: normalization
// (cleaning, accents, case, Hangul, CJK, punctuation), greedy longest-match-first, [UNK],
// special tokens in the text, spans, decoding, and bad vocab.txt files.
#include "io/file_bytes.h"
#include "text/utf8.h"
#include "text/wordpiece.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace attnlab;

namespace {

const std::string kVocabPath = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/bert/vocab.txt";

// The fixture's ids are its line numbers from 0:
//   [PAD]=0 [UNK]=1 [CLS]=2 [SEP]=3 [MASK]=4 the=5 cat=6 sat=7 play=8 ##ing=9 ##s=10 un=11
//   ##aff=12 ##able=13 cafe=14 '=15 s=16 !=17 .=18 ,=19 $=20 5=21 +=22 [=23 ]=24 mask=25 a=26
//   ##a=27 한=28 ##국=29 ᄒ=30 ##ᅡ=31 ##ᆫ=32 ##ᄀ=33 ##ᅮ=34 ##ᆨ=35 中=36 文=37 i=38 οδοσ=39
//   Café=40 x=41 ##(U+1D165 U+1D16D)=42
WordPieceTokenizer fixture_tokenizer(WordPieceOptions options = {}) {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(kVocabPath);
    REQUIRE(bytes.ok());
    const std::string text(bytes->begin(), bytes->end());
    Result<WordPieceTokenizer> t = WordPieceTokenizer::from_file({"vocab.txt", text}, options);
    REQUIRE(t.ok());
    return std::move(t).value();
}

const WordPieceOptions kCased{.lower_case = false, .strip_accents = std::nullopt};

// The ids between [CLS] and [SEP], which the test checks are there.
std::vector<int> inner_ids(const WordPieceTokenizer& t, std::string_view text) {
    Result<SubwordEncoding> e = t.encode(text);
    REQUIRE(e.ok());
    const std::vector<int>& ids = e->tokens.ids;
    REQUIRE(ids.size() >= 2);
    CHECK(ids.front() == t.cls_id());
    CHECK(ids.back() == t.sep_id());
    return {ids.begin() + 1, ids.end() - 1};
}

}  // namespace

TEST_CASE("wordpiece: a sentence with case, contraction and punctuation, with spans", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer t = fixture_tokenizer();
    CHECK(t.unk_id() == 1);
    CHECK(t.cls_id() == 2);
    CHECK(t.sep_id() == 3);
    CHECK(t.pad_id() == 0);
    CHECK(t.mask_id() == 4);
    // "the cat's playing!" -> the cat ' s playing ! ; "playing" -> play ##ing (longest prefix first).
    Result<SubwordEncoding> e = t.encode("The cat's PLAYING!");
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 5, 6, 15, 16, 8, 9, 17, 3});
    CHECK(e->tokens.pieces == std::vector<std::string>{"[CLS]", "The", "cat", "'", "s", "PLAY", "ING", "!", "[SEP]"});
    CHECK(e->spans ==
          std::vector<TextSpan>{{0, 0}, {0, 3}, {4, 7}, {7, 8}, {8, 9}, {10, 14}, {14, 17}, {17, 18}, {18, 18}});
    CHECK(e->tokens.unknown.empty());
    CHECK(inner_ids(t, "unaffable") == std::vector<int>{11, 12, 13});  // un ##aff ##able
    CHECK(inner_ids(t, "cats") == std::vector<int>{6, 10});
}

TEST_CASE("wordpiece: white space, control characters, U+FFFD", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer t = fixture_tokenizer();
    CHECK(inner_ids(t, "").empty());
    CHECK(inner_ids(t, " \t\n ").empty());
    CHECK(inner_ids(t, "  the   cat  ") == std::vector<int>{5, 6});
    CHECK(inner_ids(t,
                    "\tthe\xE3\x80\x80"
                    "cat\r\n") == std::vector<int>{5, 6});  // U+3000 separates
    CHECK(inner_ids(t,
                    "the\xE2\x80\xA8"
                    "cat") == std::vector<int>{5, 6});  // U+2028 separates
    // NUL, U+FFFD, the soft hyphen and the zero-width space (Cf) are dropped, inside a word too.
    Result<SubwordEncoding> e =
        t.encode(std::string("\0th\xEF\xBF\xBD"
                             "e ca\xC2\xAD"
                             "t\xE2\x80\x8B",
                             16));
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 5, 6, 3});
    CHECK(e->tokens.pieces[1] ==
          "th\xEF\xBF\xBD"
          "e");  // the span runs from the first kept code point to the last
    CHECK(e->tokens.pieces[2] ==
          "ca\xC2\xAD"
          "t");
    // \v, \f and U+0085 are control characters to BERT: dropped, so they join words.
    CHECK(inner_ids(t, "the\vcat") == std::vector<int>{1});
    CHECK(inner_ids(t,
                    "the\x0C"
                    "cat\xC2\x85"
                    "s") == std::vector<int>{1});
}

TEST_CASE("wordpiece: punctuation splits, ASCII symbols included", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer t = fixture_tokenizer();
    CHECK(inner_ids(t, "$5+a") == std::vector<int>{20, 21, 22, 26});  // $ and + are S* to Unicode
    CHECK(inner_ids(t, "cat.,!") == std::vector<int>{6, 18, 19, 17});
    // « and » (Pi, Pf) are words of their own, unknown to this vocabulary.
    Result<SubwordEncoding> e = t.encode("«the»");
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 1, 5, 1, 3});
    CHECK(e->tokens.unknown == std::vector<int>{1, 3});
    CHECK(e->tokens.pieces[3] == "»");
}

TEST_CASE("wordpiece: accents, case, Greek sigma, dotted I", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer uncased = fixture_tokenizer();
    Result<SubwordEncoding> e = uncased.encode("Café CAFE\xCC\x81");  // é precomposed, then E + U+0301
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 14, 14, 3});
    CHECK(e->tokens.pieces[1] == "Café");
    CHECK(e->tokens.pieces[2] == "CAFE");                       // the dropped accent was a code point of its own
    CHECK(inner_ids(uncased, "İ") == std::vector<int>{38});     // NFD I + U+0307, strip, lower: i
    CHECK(inner_ids(uncased, "ΟΔΟΣ") == std::vector<int>{39});  // one code point at a time: final Σ is σ
    // NFD puts U+1D165 (class 216) before U+1D16D (class 226); both are Mc, so they stay.
    CHECK(inner_ids(uncased, "x\U0001D16D\U0001D165") == std::vector<int>{41, 42});

    const WordPieceTokenizer cased = fixture_tokenizer(kCased);
    CHECK(inner_ids(cased, "Café") == std::vector<int>{40});
    CHECK(inner_ids(cased, "cafe The") == std::vector<int>{14, 1});
    const WordPieceTokenizer stripped_cased = fixture_tokenizer({.lower_case = false, .strip_accents = true});
    CHECK(inner_ids(stripped_cased, "Café") == std::vector<int>{1});  // "Cafe": no entry starts with "C"
    const WordPieceTokenizer lowered_unstripped = fixture_tokenizer({.lower_case = true, .strip_accents = false});
    CHECK(inner_ids(lowered_unstripped, "CAFE") == std::vector<int>{14});
    CHECK(inner_ids(lowered_unstripped, "Café") == std::vector<int>{1});  // "café" keeps its accent
}

TEST_CASE("wordpiece: Hangul is jamo when accents are stripped, syllables when cased", "[text][tokenizer][wordpiece]") {
    // 한 -> ᄒ ᅡ ᆫ, 국 -> ᄀ ᅮ ᆨ: the word is six jamo, matched as ᄒ ##ᅡ ##ᆫ ##ᄀ ##ᅮ ##ᆨ.
    Result<SubwordEncoding> e = fixture_tokenizer().encode("한국");
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 30, 31, 32, 33, 34, 35, 3});
    CHECK(e->tokens.pieces == std::vector<std::string>{"[CLS]", "한", "한", "한", "국", "국", "국", "[SEP]"});
    CHECK(e->spans[3] == TextSpan{0, 3});

    e = fixture_tokenizer(kCased).encode("한국");
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 28, 29, 3});
    CHECK(e->tokens.pieces == std::vector<std::string>{"[CLS]", "한", "국", "[SEP]"});
}

TEST_CASE("wordpiece: CJK ideographs are words of their own", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer t = fixture_tokenizer();
    CHECK(inner_ids(t, "中文") == std::vector<int>{36, 37});
    CHECK(inner_ids(t, "a中a") == std::vector<int>{26, 36, 26});
    CHECK(inner_ids(t, "한中") == std::vector<int>{30, 31, 32, 36});
}

TEST_CASE("wordpiece: [UNK] for a word with no way through or over 100 code points", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer t = fixture_tokenizer();
    Result<SubwordEncoding> e = t.encode("the catx sat");  // "cat" matches, "##x" does not: the whole word
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 5, 1, 7, 3});
    CHECK(e->tokens.unknown == std::vector<int>{2});
    CHECK(e->tokens.pieces[2] == "catx");
    CHECK(e->spans[2] == TextSpan{4, 8});

    const std::vector<int> hundred = inner_ids(t, std::string(100, 'a'));  // a ##a ... ##a
    REQUIRE(hundred.size() == 100);
    CHECK(hundred.front() == 26);
    CHECK(hundred.back() == 27);
    e = t.encode(std::string(101, 'a') + " a");
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 1, 26, 3});
    CHECK(e->tokens.pieces[1] == std::string(101, 'a'));
    // The limit counts code points after normalization: 34 syllables are 102 jamo.
    std::string syllables;
    for (int i = 0; i < 34; ++i) syllables += "한";
    CHECK(inner_ids(t, syllables) == std::vector<int>{1});
}

TEST_CASE("wordpiece: special tokens spelled in the text", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer t = fixture_tokenizer();
    Result<SubwordEncoding> e = t.encode("the [MASK] sat[SEP]");
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{2, 5, 4, 7, 3, 3});
    CHECK(e->tokens.pieces[2] == "[MASK]");
    CHECK(e->spans[2] == TextSpan{4, 10});
    CHECK(e->tokens.unknown.empty());  // a typed [UNK] is not an unknown word
    CHECK(inner_ids(t, "[UNK]") == std::vector<int>{1});
    CHECK(t.encode("[UNK]")->tokens.unknown.empty());
    CHECK(inner_ids(t, "[mask]") == std::vector<int>{23, 25, 24});  // only the exact spelling
}

TEST_CASE("wordpiece: decode", "[text][tokenizer][wordpiece]") {
    const WordPieceTokenizer t = fixture_tokenizer();
    const std::vector<int> ids = t.encode("The cat's PLAYING!")->tokens.ids;
    CHECK(t.decode(ids, true) == "the cat's playing!");
    CHECK(t.decode(ids, false) == "[CLS] the cat's playing! [SEP]");
    CHECK(t.decode({11, 12, 13, 18}, false) == "unaffable.");
    CHECK(t.decode({27, 5, 1, 4}, true) == "##a the");  // a leading ## stays; [UNK] and [MASK] are special
    CHECK(t.decode({5, 99, -1}, false) == "the <?99> <?-1>");
    CHECK(t.decode({}, false).empty());
}

TEST_CASE("wordpiece: invalid UTF-8 text is an error naming the offset", "[text][tokenizer][wordpiece]") {
    Result<SubwordEncoding> e = fixture_tokenizer().encode("the \xED\xA0\x80");
    REQUIRE_FALSE(e.ok());
    CHECK_THAT(e.error().message, Catch::Contains("byte offset 4"));
}

TEST_CASE("wordpiece files: one-line errors naming the file and line", "[text][tokenizer][wordpiece]") {
    CHECK(WordPieceTokenizer::from_file({"v.txt", "[UNK]\r\n[CLS]\r\n[SEP]\r\nthe"}, {}).ok());
    struct Case {
        std::string text, expected;
    };
    const std::vector<Case> cases = {
        {"", "v.txt: no tokens"},
        {"[UNK]\n\n[CLS]\n[SEP]\n", "v.txt line 2: empty line"},
        {"[UNK]\n[CLS]\n[SEP]\n\n", "v.txt line 4: empty line"},
        {"[UNK]\n[CLS]\nx\xC3\n[SEP]\n", "v.txt line 3: invalid UTF-8 at byte offset 1"},
        {"[UNK]\n[CLS]\n[SEP]\nthe\nthe\n", "v.txt line 5: token \"the\" repeats line 4"},
        {"[UNK]\n[CLS]\n[SEP]\na\tb\na\tb\n", "v.txt line 5: token \"a\\tb\" repeats line 4"},
        {"[UNK]\n[SEP]\n", "v.txt: no [CLS] token"},
        {"[CLS]\n[SEP]\n", "v.txt: no [UNK] token"},
        {"[UNK]\n[CLS]\n", "v.txt: no [SEP] token"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        Result<WordPieceTokenizer> t = WordPieceTokenizer::from_file({"v.txt", c.text}, {});
        REQUIRE_FALSE(t.ok());
        CHECK_THAT(t.error().message, Catch::Contains(c.expected));
        CHECK(t.error().message.find('\n') == std::string::npos);
        CHECK(is_valid_utf8(t.error().message));
    }
}
