// Tests for core/text: strict UTF-8, Vocab construction and JSON, word/char tokenizers.
#include "text/tokenizer.h"
#include "text/utf8.h"
#include "text/vocab.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace attnlab;

namespace {

// ids: <pad>=0 <sos>=1 <eos>=2 <unk>=3 나=4 는=5 빨간=6 사과=7 를=8 좋아해=9
//      i=10 like=11 red=12 apples=13 .=14 !=15 사=16 과=17
Vocab small_vocab() {
    Result<Vocab> v = Vocab::from_tokens({"<pad>", "<sos>", "<eos>", "<unk>", "나", "는", "빨간", "사과", "를",
                                          "좋아해", "i", "like", "red", "apples", ".", "!", "사", "과"});
    REQUIRE(v.ok());
    return std::move(v).value();
}

constexpr int kUnk = 3;

// "w<i>"; appending instead of "w" + to_string dodges a GCC 12 -O3 -Wrestrict false positive.
std::string word_token(int i) {
    std::string s = "w";
    s += std::to_string(i);
    return s;
}

}  // namespace

TEST_CASE("utf8: code points of Hangul and ASCII", "[text][utf8]") {
    CHECK(count_code_points("사과 apple") == 8);
    CHECK(count_code_points("") == 0);
    CHECK(is_valid_utf8("사과 apple"));
    Result<std::vector<std::string>> cps = split_code_points("사a과\xF0\x9F\x98\x80");  // 😀
    REQUIRE(cps.ok());
    CHECK(*cps == std::vector<std::string>{"사", "a", "과", "\xF0\x9F\x98\x80"});
    // Edges of the valid ranges: U+0080, U+07FF, U+E000 (after the surrogates), U+10FFFF.
    CHECK(is_valid_utf8("\xC2\x80\xDF\xBF\xEE\x80\x80\xF4\x8F\xBF\xBF"));
}

TEST_CASE("utf8: invalid sequences are errors naming the byte offset", "[text][utf8]") {
    struct Case {
        std::string bytes;
        std::string offset;
    };
    const std::vector<Case> cases = {
        {"ab\x80", "byte offset 2"},            // lone continuation byte
        {"x\xEC\x82", "byte offset 1"},         // truncated 3-byte sequence (사 is EC 82 AC)
        {"\xC0\xAF", "byte offset 0"},          // overlong '/'
        {"\xE0\x80\xAF", "byte offset 0"},      // overlong 3-byte form
        {"\xED\xA0\x80", "byte offset 0"},      // surrogate U+D800
        {"\xF4\x90\x80\x80", "byte offset 0"},  // U+110000
        {"\xEC\x82"
         "A",
         "byte offset 0"},              // continuation replaced by ASCII
        {"사과\xFF", "byte offset 6"},  // byte never used in UTF-8
    };
    for (const Case& c : cases) {
        INFO("bytes: " << c.bytes.size());
        CHECK_FALSE(is_valid_utf8(c.bytes));
        Result<std::vector<std::string>> cps = split_code_points(c.bytes);
        REQUIRE_FALSE(cps.ok());
        CHECK_THAT(cps.error().message, Catch::Contains(c.offset));
    }
    CHECK_THAT(split_code_points("\xED\xA0\x80").error().message, Catch::Contains("surrogate"));
    CHECK_THAT(split_code_points("\xC0\xAF").error().message, Catch::Contains("overlong"));
}

TEST_CASE("tokenize: invalid UTF-8 is an error for both kinds", "[text][tokenizer]") {
    const Vocab vocab = small_vocab();
    for (const char* bad : {"\x80", "\xEC\x82", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80"}) {
        for (TokenizerKind kind : {TokenizerKind::word, TokenizerKind::character}) {
            Result<Tokenized> t = tokenize(vocab, kind, std::string("ok ") + bad, kUnk);
            REQUIRE_FALSE(t.ok());
            CHECK_THAT(t.error().message, Catch::Contains("byte offset 3"));
        }
    }
}

TEST_CASE("tokenize word: Hangul sentence", "[text][tokenizer]") {
    const Vocab vocab = small_vocab();
    Result<Tokenized> t = tokenize(vocab, TokenizerKind::word, "나 는 빨간 사과 를 좋아해", kUnk);
    REQUIRE(t.ok());
    CHECK(t->ids == std::vector<int>{4, 5, 6, 7, 8, 9});
    CHECK(t->pieces == std::vector<std::string>{"나", "는", "빨간", "사과", "를", "좋아해"});
    CHECK(t->unknown.empty());
}

TEST_CASE("tokenize word: unknown words, lower-case fallback, punctuation", "[text][tokenizer]") {
    const Vocab vocab = small_vocab();
    Result<Tokenized> t = tokenize(vocab, TokenizerKind::word, "I like green apples.", kUnk);
    REQUIRE(t.ok());
    CHECK(t->pieces == std::vector<std::string>{"I", "like", "green", "apples", "."});
    CHECK(t->ids == std::vector<int>{10, 11, kUnk, 13, 14});
    CHECK(t->unknown == std::vector<int>{2});

    // Every listed mark splits, even with no space around it; unknown marks are reported.
    t = tokenize(vocab, TokenizerKind::word, "(red),apples!?\"i\";:", kUnk);
    REQUIRE(t.ok());
    CHECK(t->pieces == std::vector<std::string>{"(", "red", ")", ",", "apples", "!", "?", "\"", "i", "\"", ";", ":"});
    CHECK(t->ids == std::vector<int>{kUnk, 12, kUnk, kUnk, 13, 15, kUnk, kUnk, 10, kUnk, kUnk, kUnk});
    CHECK(t->unknown == std::vector<int>{0, 2, 3, 6, 7, 9, 10, 11});

    // An exact match wins over the lower-cased form; "RED" falls back to "red".
    Result<Vocab> cased = Vocab::from_tokens({"<unk>", "Apple", "apple", "red"});
    REQUIRE(cased.ok());
    t = tokenize(*cased, TokenizerKind::word, "Apple apple APPLE RED Rouge", 0);
    REQUIRE(t.ok());
    CHECK(t->ids == std::vector<int>{1, 2, 2, 3, 0});
    CHECK(t->unknown == std::vector<int>{4});
}

TEST_CASE("tokenize word: whitespace runs, U+3000, specials, empty", "[text][tokenizer]") {
    const Vocab vocab = small_vocab();
    Result<Tokenized> t =
        tokenize(vocab, TokenizerKind::word, "  나\t\t는\r\n빨간\xE3\x80\x80\xE3\x80\x80사과  ", kUnk);
    REQUIRE(t.ok());
    CHECK(t->pieces == std::vector<std::string>{"나", "는", "빨간", "사과"});
    CHECK(t->ids == std::vector<int>{4, 5, 6, 7});

    t = tokenize(vocab, TokenizerKind::word, "<sos> 사과 <eos>", kUnk);
    REQUIRE(t.ok());
    CHECK(t->ids == std::vector<int>{1, 7, 2});

    for (const char* blank : {"", " ", " \t\r\n", "\xE3\x80\x80 "}) {
        for (TokenizerKind kind : {TokenizerKind::word, TokenizerKind::character}) {
            if (kind == TokenizerKind::character && *blank != '\0') continue;  // spaces are tokens
            t = tokenize(vocab, kind, blank, kUnk);
            REQUIRE(t.ok());
            CHECK(t->ids.empty());
            CHECK(t->pieces.empty());
            CHECK(t->unknown.empty());
        }
    }
}

TEST_CASE("tokenize char: code points, spaces are tokens", "[text][tokenizer]") {
    const Vocab vocab = small_vocab();
    Result<Tokenized> t = tokenize(vocab, TokenizerKind::character, "사과", kUnk);
    REQUIRE(t.ok());
    CHECK(t->pieces == std::vector<std::string>{"사", "과"});
    CHECK(t->ids == std::vector<int>{16, 17});

    const Vocab chars = default_char_vocab();
    t = tokenize(chars, TokenizerKind::character, "Hi 사과!", 3);
    REQUIRE(t.ok());
    CHECK(t->pieces == std::vector<std::string>{"H", "i", " ", "사", "과", "!"});
    CHECK(t->ids == std::vector<int>{4 + 'H' - 32, 4 + 'i' - 32, 4, 3, 3, 4 + '!' - 32});
    CHECK(t->unknown == std::vector<int>{3, 4});
}

TEST_CASE("tokenizer kind names", "[text][tokenizer]") {
    CHECK(to_string(TokenizerKind::word) == "word");
    CHECK(to_string(TokenizerKind::character) == "char");
    for (TokenizerKind kind : {TokenizerKind::word, TokenizerKind::character}) {
        Result<TokenizerKind> back = tokenizer_kind_from_string(to_string(kind));
        REQUIRE(back.ok());
        CHECK(*back == kind);
    }
    Result<TokenizerKind> bad = tokenizer_kind_from_string("bpe");
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error().message, Catch::Contains("bpe"));
}

TEST_CASE("detokenize: round trips and special tokens", "[text][tokenizer]") {
    const Vocab vocab = small_vocab();
    Result<Tokenized> t = tokenize(vocab, TokenizerKind::word, "나 는  빨간 사과 를 좋아해", kUnk);
    REQUIRE(t.ok());
    CHECK(detokenize(vocab, TokenizerKind::word, t->ids, false) == "나 는 빨간 사과 를 좋아해");

    t = tokenize(vocab, TokenizerKind::word, "I like red apples!", kUnk);
    REQUIRE(t.ok());
    CHECK(detokenize(vocab, TokenizerKind::word, t->ids, false) == "i like red apples !");

    const Vocab chars = default_char_vocab();
    const std::string text = "Hello, world! (x=1) ~";
    t = tokenize(chars, TokenizerKind::character, text, 3);
    REQUIRE(t.ok());
    CHECK(t->unknown.empty());
    CHECK(detokenize(chars, TokenizerKind::character, t->ids, false) == text);

    const std::vector<int> ids = {1, 4, 5, 2, 0, 0};
    CHECK(detokenize(vocab, TokenizerKind::word, ids, true) == "나 는");
    CHECK(detokenize(vocab, TokenizerKind::word, ids, false) == "<sos> 나 는 <eos> <pad> <pad>");
    CHECK(detokenize(vocab, TokenizerKind::word, {1, 3, 99, -1}, true) == "<unk> <?99> <?-1>");
    CHECK(detokenize(vocab, TokenizerKind::character, {16, 17, 2, 99}, true) == "사과<?99>");
    CHECK(detokenize(vocab, TokenizerKind::word, {}, false).empty());
}

TEST_CASE("vocab: from_tokens validation", "[text][vocab]") {
    Result<Vocab> dup = Vocab::from_tokens({"a", "사과", "b", "사과"});
    REQUIRE_FALSE(dup.ok());
    CHECK_THAT(dup.error().message, Catch::Contains("\"사과\"") && Catch::Contains("ids 1 and 3"));

    Result<Vocab> empty_token = Vocab::from_tokens({"a", ""});
    REQUIRE_FALSE(empty_token.ok());
    CHECK_THAT(empty_token.error().message, Catch::Contains("token 1"));

    Result<Vocab> bad_utf8 = Vocab::from_tokens({"a", "b", "x\xC0\xAF"});
    REQUIRE_FALSE(bad_utf8.ok());
    CHECK_THAT(bad_utf8.error().message, Catch::Contains("token 2") && Catch::Contains("offset 1"));

    CHECK_FALSE(Vocab::from_tokens({}).ok());

    const Vocab v = small_vocab();
    CHECK(v.size() == 18);
    CHECK(v.token(7) == "사과");
    CHECK(v.find("사과") == 7);
    CHECK(v.find("바나나") == std::nullopt);
    CHECK(v.tokens().front() == "<pad>");
}

TEST_CASE("vocab: default char vocabulary", "[text][vocab]") {
    const Vocab v = default_char_vocab();
    REQUIRE(v.size() == 99);
    CHECK(v.token(0) == kPadToken);
    CHECK(v.token(1) == kSosToken);
    CHECK(v.token(2) == kEosToken);
    CHECK(v.token(3) == kUnkToken);
    CHECK(v.token(4) == " ");
    CHECK(v.token(98) == "~");
    CHECK(v.find("A") == 4 + 'A' - 32);
}

TEST_CASE("vocab: JSON round trip and errors", "[text][vocab]") {
    Result<Vocab> v = Vocab::from_tokens({"<pad>", "사과", "\"q\"", "back\\slash", " ", "é"});
    REQUIRE(v.ok());
    const std::string json = v->to_json();
    CHECK(json.find("사과") != std::string::npos);  // UTF-8 kept, not \u-escaped
    Result<Vocab> back = Vocab::from_json(json);
    REQUIRE(back.ok());
    CHECK(back->tokens() == v->tokens());
    CHECK(back->to_json() == json);

    CHECK(Vocab::from_json(R"(["a","\uC0AC\uACFC"])")->find("사과") == 1);

    for (const char* bad : {R"({"a": 1})", R"("a")", "42", R"(["a", 1])", R"(["a", null])", R"(["a", ["b"]])", "[", "",
                            "[\"a\",]", "[\"\xC0\xAF\"]", R"(["a", "a"])", "[]"}) {
        INFO(bad);
        Result<Vocab> r = Vocab::from_json(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find('\n') == std::string::npos);
    }
    CHECK_THAT(Vocab::from_json(R"({"a": 1})").error().message, Catch::Contains("object"));
    CHECK_THAT(Vocab::from_json(R"(["a", 1])").error().message,
               Catch::Contains("element 1") && Catch::Contains("number"));
}

TEST_CASE("vocab: from_lines", "[text][vocab]") {
    Result<Vocab> v = Vocab::from_lines("\xEF\xBB\xBF<pad>\r\n사과\r\n\r\n\n \napple");
    REQUIRE(v.ok());
    CHECK(v->tokens() == std::vector<std::string>{"<pad>", "사과", " ", "apple"});
    CHECK(v->find("사과") == 1);

    Result<Vocab> dup = Vocab::from_lines("a\nb\na\n");
    REQUIRE_FALSE(dup.ok());
    CHECK_THAT(dup.error().message, Catch::Contains("\"a\"") && Catch::Contains("ids 0 and 2"));
    CHECK_FALSE(Vocab::from_lines("\r\n\n").ok());
}

TEST_CASE("vocab and tokenizer: 100k tokens", "[text][vocab][tokenizer]") {
    std::vector<std::string> tokens;
    tokens.reserve(100000);
    tokens.emplace_back(kUnkToken);
    for (int i = 1; i < 100000; ++i) tokens.push_back(word_token(i));
    Result<Vocab> v = Vocab::from_tokens(std::move(tokens));
    REQUIRE(v.ok());
    REQUIRE(v->size() == 100000);
    for (int i = 1; i < 100000; i += 997) CHECK(v->find(word_token(i)) == i);
    CHECK(v->find("w100000") == std::nullopt);

    std::string text;
    for (int i = 0; i < 10000; ++i) text += word_token(i * 7 % 100000) + " ";
    Result<Tokenized> t = tokenize(*v, TokenizerKind::word, text, 0);
    REQUIRE(t.ok());
    REQUIRE(t->ids.size() == 10000);
    CHECK(t->ids[1] == 7);
    CHECK(t->ids[9999] == 9999 * 7 % 100000);
    CHECK(t->unknown == std::vector<int>{0});  // "w0" is not in the vocabulary
}
