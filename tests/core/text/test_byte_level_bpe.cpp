// Tests for GPT-2's byte-level BPE: the byte alphabet, the pre-tokenizer, the merge loop, the
// tokenizer over tests/fixtures/tokenizers/gpt2 (hand-worked splits and the regex-module oracle
// of make_fixtures.py), decoding, and every kind of bad file.
#include "io/file_bytes.h"
#include "text/bpe_merge.h"
#include "text/byte_level.h"
#include "text/byte_level_bpe.h"
#include "text/gpt2_pretokenizer.h"
#include "text/utf8.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/";

std::string read_fixture(const std::string& name) {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(kFixtures + name);
    REQUIRE(bytes.ok());
    return std::string(bytes->begin(), bytes->end());
}

// The fixture tokenizer: ids 0..255 are the bytes, then one token per line of merges.txt
// (256 = "Ġt", 257 = "Ġth", ...), then <|endoftext|> (292).
ByteLevelBpeTokenizer fixture_tokenizer() {
    const std::string vocab = read_fixture("gpt2/vocab.json"), merges = read_fixture("gpt2/merges.txt");
    Result<ByteLevelBpeTokenizer> t = ByteLevelBpeTokenizer::from_files({"vocab.json", vocab}, {"merges.txt", merges});
    REQUIRE(t.ok());
    return std::move(t).value();
}

std::vector<std::string> token_strings(const ByteLevelBpeTokenizer& t, const std::vector<int>& ids) {
    std::vector<std::string> out;
    for (int id : ids) out.push_back(t.vocab().token(id));
    return out;
}

std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    for (const TextSpan& s : gpt2_pretokenize(text)) out.emplace_back(text.substr(s.begin, s.end - s.begin));
    return out;
}

std::string utf8(char32_t c) {
    std::string s;
    append_utf8(c, s);
    return s;
}

// A vocab.json with the 256 byte symbols (id = byte) and `extra` after them.
std::string byte_vocab_json(const std::vector<std::string>& extra) {
    nlohmann::json vocab = nlohmann::json::object();
    for (int b = 0; b < 256; ++b) vocab[utf8(byte_to_symbol(static_cast<uint8_t>(b)))] = b;
    for (size_t i = 0; i < extra.size(); ++i) vocab[extra[i]] = 256 + i;
    return vocab.dump();
}

}  // namespace

TEST_CASE("byte level: GPT-2's byte alphabet", "[text][gpt2]") {
    CHECK(byte_to_symbol(' ') == U'Ġ');  // U+0120: the 33rd byte (from 0) that is not printable
    CHECK(byte_to_symbol('\n') == U'Ċ');
    CHECK(byte_to_symbol(0x00) == 0x100);
    CHECK(byte_to_symbol(0x7F) == 0x121);  // after the 33 of 0x00..0x20
    CHECK(byte_to_symbol(0xA0) == 0x142);
    CHECK(byte_to_symbol(0xAD) == 0x143);  // the soft hyphen, last of the 68
    CHECK(byte_to_symbol('a') == U'a');
    CHECK(byte_to_symbol(0xE9) == U'é');
    for (int b = 0; b < 256; ++b) CHECK(symbol_to_byte(byte_to_symbol(static_cast<uint8_t>(b))) == b);
    CHECK(symbol_to_byte(0x144) == std::nullopt);
    CHECK(symbol_to_byte(U' ') == std::nullopt);                         // the space is not its own symbol
    CHECK(symbols_to_bytes("ĠÃ©") == std::string(" \xC3\xA9"));          // " é"
    CHECK(symbols_to_bytes("ðŁĺĢ") == std::string("\xF0\x9F\x98\x80"));  // 😀
    CHECK(symbols_to_bytes("한") == std::nullopt);
}

TEST_CASE("gpt2 pre-tokenizer: spaces, newlines, contractions, digits, punctuation", "[text][gpt2]") {
    using V = std::vector<std::string>;
    CHECK(words("Hello world") == V{"Hello", " world"});
    CHECK(words("  leading") == V{" ", " leading"});    // \s+(?!\S) leaves the last space to " leading"
    CHECK(words("trailing  ") == V{"trailing", "  "});  // at the end the whole run
    CHECK(words("a   b") == V{"a", "  ", " b"});
    CHECK(words("a\n\nb") == V{"a", "\n", "\n", "b"});  // "\n" before "b" is a lone white space: \s+
    CHECK(words("a\n\n") == V{"a", "\n\n"});
    CHECK(words(" \n x") == V{" \n", " x"});  // the run " \n " minus its last space
    CHECK(words("it's they're IT'S 'sa") == V{"it", "'s", " they", "'re", " IT", "'", "S", " '", "sa"});
    CHECK(words("'ll've'd'm't") == V{"'ll", "'ve", "'d", "'m", "'t"});
    CHECK(words("2023 and 42abc") == V{"2023", " and", " 42", "abc"});
    CHECK(words("x²³ Ⅻ") == V{"x", "²³", " Ⅻ"});  // No and Nl are numbers too
    CHECK(words("Wow!!! ...?") == V{"Wow", "!!!", " ...?"});
    CHECK(words("x  !") == V{"x", " ", " !"});
    CHECK(words("hi 😀!") == V{"hi", " 😀!"});  // a symbol is neither letter nor number
    CHECK(words("안녕 세계") == V{"안녕", " 세계"});
    CHECK(words("\t\tx\xE3\x80\x80y") == V{"\t", "\t", "x", "\xE3\x80\x80", "y"});  // only U+0020 joins a word
    CHECK(words("e\xCC\x81 x") == V{"e", "\xCC\x81", " x"});  // a combining mark (Mn) is no letter
    CHECK(words("").empty());
}

TEST_CASE("bpe merge: lowest rank first, every occurrence left to right", "[text][gpt2]") {
    // ids: a=0 b=1 c=2 ab=3 bc=4 aa=5 aaaa=6
    BpeMergeTable merges;
    merges.add(1, 2, 4);                           // rank 0: b c
    merges.add(0, 1, 3);                           // rank 1: a b
    merges.add(0, 0, 5);                           // rank 2: a a
    merges.add(5, 5, 6);                           // rank 3: aa aa
    const auto bytes = [](std::vector<int> ids) {  // one symbol per byte
        std::vector<BpeSymbol> symbols;
        for (int id : ids) symbols.push_back({id, 1});
        return symbols;
    };
    const auto run = [&](std::vector<int> ids) {
        std::vector<int> out;
        for (const BpeSymbol& s : bpe_merge(bytes(ids), merges)) out.push_back(s.id);
        return out;
    };
    CHECK(run({0, 1, 2}) == std::vector<int>{0, 4});  // b c (rank 0) wins over a b (rank 1)
    CHECK(run({0, 1, 0, 1}) == std::vector<int>{3, 3});
    CHECK(run({0, 0, 0}) == std::vector<int>{5, 0});  // the leftmost pair of a a joins
    CHECK(run({0, 0, 0, 0}) == std::vector<int>{6});  // one pass: aa aa; the next: aaaa
    CHECK(run({0, 0, 0, 0, 0}) == std::vector<int>{6, 0});
    CHECK(run({2}) == std::vector<int>{2});
    CHECK(run({}).empty());

    // Pairs made in a pass wait for the next one, even when they rank lower: in "a b a b" both
    // "a b" join in one pass, so "ab a" (rank 0) never gets its chance.
    BpeMergeTable pass_rule;
    pass_rule.add(3, 0, 10);  // rank 0: ab a -> aba
    pass_rule.add(0, 1, 3);   // rank 1: a b -> ab
    CHECK(bpe_merge(bytes({0, 1, 0, 1}), pass_rule) == std::vector<BpeSymbol>{{3, 2}, {3, 2}});
    CHECK(bpe_merge(bytes({0, 1, 0}), pass_rule) == std::vector<BpeSymbol>{{10, 3}});

    // A pair added again takes its new rank and id, as the last line wins in GPT-2's dict.
    BpeMergeTable again;
    again.add(0, 0, 5);  // rank 0: a a -> 5
    again.add(5, 0, 7);  // rank 1: (5) a -> 7
    again.add(0, 0, 9);  // rank 2: a a -> 9, replacing rank 0
    CHECK(bpe_merge(bytes({0, 0, 0}), again) == std::vector<BpeSymbol>{{9, 2}, {0, 1}});
}

TEST_CASE("gpt2 tokenizer: hand-worked splits of the fixture merges", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    const auto tokens = [&](std::string_view text) {
        Result<SubwordEncoding> e = t.encode(text);
        REQUIRE(e.ok());
        return token_strings(t, e->tokens.ids);
    };
    using V = std::vector<std::string>;
    // "Hello": l l (line 4), H e (5), He ll (6), Hell o (7). " world": o r (8), Ġ w (9), Ġw or (10),
    // Ġwor l (11), Ġworl d (12).
    CHECK(tokens("Hello world") == V{"Hello", "Ġworld"});
    CHECK(tokens(" the") == V{"Ġthe"});  // Ġ t, Ġt h, Ġth e (lines 1-3)
    CHECK(tokens("  the") == V{"Ġ", "Ġthe"});
    CHECK(tokens("the  ") == V{"t", "h", "e", "ĠĠ"});                    // Ġ Ġ (24); "th" only merges after Ġ
    CHECK(tokens("it's they're") == V{"it", "'s", "Ġthe", "y", "'re"});  // i t (16), ' s (13), ' r, 'r e (14-15)
    // Ġ 2 (17) then 0 2 (18), Ġ2 02 (19), Ġ202 3 (20); without the space only 0 2 applies.
    CHECK(tokens(" 2023") == V{"Ġ2023"});
    CHECK(tokens("2023") == V{"2", "02", "3"});
    CHECK(tokens("!!!") == V{"!!!"});        // ! ! joins the first two, then !! ! (22)
    CHECK(tokens("!!!!") == V{"!!", "!!"});  // one pass joins both pairs; no merge "!! !!"
    CHECK(tokens("a\n\n") == V{"a", "ĊĊ"});  // Ċ Ċ (23)
    CHECK(tokens("a\n\nb") == V{"a", "Ċ", "Ċ", "b"});
    CHECK(tokens("abc") == V{"a", "bc"});      // b c (35) ranks before a b (36)
    CHECK(tokens("café") == V{"cafÃ©"});       // é is C3 A9 = "Ã©" (31); c a, ca f, caf Ã© (32-34)
    CHECK(tokens("안녕") == V{"ìķĪ", "ëħķ"});  // EC 95 88, EB 85 95: ì ķ, ìķ Ī, ë ħ, ëħ ķ (25-28)
    CHECK(tokens("😀") == V{"ðŁĺ", "Ģ"});       // F0 9F 98 80: ð Ł, ðŁ ĺ (29-30); 80 stays alone
    CHECK(tokens("").empty());
}

TEST_CASE("gpt2 tokenizer: pieces and spans are whole code points of the text", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    Result<SubwordEncoding> e = t.encode("hi 😀 안녕");
    REQUIRE(e.ok());
    CHECK(token_strings(t, e->tokens.ids) == std::vector<std::string>{"h", "i", "Ġ", "ðŁĺ", "Ģ", "Ġ", "ìķĪ", "ëħķ"});
    // The emoji's bytes are split over two tokens; both show the whole character.
    CHECK(e->tokens.pieces == std::vector<std::string>{"h", "i", " ", "😀", "😀", " ", "안", "녕"});
    CHECK(e->spans == std::vector<TextSpan>{{0, 1}, {1, 2}, {2, 3}, {3, 7}, {3, 7}, {7, 8}, {8, 11}, {11, 14}});
    CHECK(e->tokens.unknown.empty());
}

TEST_CASE("gpt2 tokenizer: <|endoftext|> is one token where the text spells it", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    REQUIRE(t.end_of_text_id() == 292);
    Result<SubwordEncoding> e = t.encode("a<|endoftext|> the<|endoftext|>");
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == std::vector<int>{'a', 292, 258, 292});
    CHECK(e->tokens.pieces == std::vector<std::string>{"a", "<|endoftext|>", " the", "<|endoftext|>"});
    CHECK(e->spans[1] == TextSpan{1, 14});
    e = t.encode("<|endoftext |>");  // not exact: ordinary text
    REQUIRE(e.ok());
    CHECK(e->tokens.ids.size() == 14);
    CHECK(t.decode({'a', 292, 258}, false) == "a<|endoftext|> the");
    CHECK(t.decode({'a', 292, 258}, true) == "a the");
}

TEST_CASE("gpt2 tokenizer: the regex-module oracle of make_fixtures.py", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    const nlohmann::json cases = nlohmann::json::parse(read_fixture("gpt2/oracle.json"));
    REQUIRE(cases.size() >= 300);
    for (const auto& c : cases) {
        const std::string text = c.at("text").get<std::string>();
        INFO("text: " << nlohmann::json(text).dump());
        Result<SubwordEncoding> e = t.encode(text);
        REQUIRE(e.ok());
        CHECK(token_strings(t, e->tokens.ids) == c.at("tokens").get<std::vector<std::string>>());
        CHECK(t.decode(e->tokens.ids, false) == text);
    }
}

TEST_CASE("gpt2 tokenizer: decode(encode(x)) == x for random valid UTF-8", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    std::mt19937 rng(7);
    // Code points from every UTF-8 length, spaces and newlines weighted up.
    const auto random_code_point = [&]() -> char32_t {
        switch (rng() % 6) {
            case 0: return U" \n\t'"[rng() % 4];
            case 1: return 0x20 + rng() % 0x5F;
            case 2: return 0x80 + rng() % 0x780;
            case 3: {
                char32_t c = 0x800 + rng() % 0xF800;
                return c >= 0xD800 && c <= 0xDFFF ? c - 0x800 : c;
            }
            case 4: return 0x10000 + rng() % 0x100000;
            default: return 0xAC00 + rng() % 11172;  // Hangul
        }
    };
    for (int n = 0; n < 300; ++n) {
        std::string text;
        for (int k = rng() % 40; k > 0; --k) append_utf8(random_code_point(), text);
        Result<SubwordEncoding> e = t.encode(text);
        REQUIRE(e.ok());
        CHECK(t.decode(e->tokens.ids, false) == text);
        // Spans never go backwards, and each piece is the text at its span.
        for (size_t i = 0; i < e->spans.size(); ++i) {
            if (i > 0) CHECK(e->spans[i].begin >= e->spans[i - 1].begin);
            CHECK(e->tokens.pieces[i] == text.substr(e->spans[i].begin, e->spans[i].end - e->spans[i].begin));
        }
    }
}

TEST_CASE("gpt2 tokenizer: decode of partial characters and unknown ids", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    const int cafe_accent = *t.vocab().find("cafÃ©");
    CHECK(t.decode({cafe_accent}, false) == "café");
    // "ðŁĺ" alone is 3 of the emoji's 4 bytes: one U+FFFD (a maximal subpart).
    const int emoji_head = *t.vocab().find("ðŁĺ");
    CHECK(t.decode({emoji_head, 'a'}, false) ==
          "\xEF\xBF\xBD"
          "a");
    CHECK(t.decode({emoji_head, 0x80}, false) == "😀");
    CHECK(t.decode({0xFF, 0xC3}, false) == "\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(t.decode({'a', 293, -1}, false) == "a<?293><?-1>");
    CHECK(t.decode({}, false).empty());
}

TEST_CASE("gpt2 tokenizer: invalid UTF-8 text is an error naming the offset", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    Result<SubwordEncoding> e = t.encode("ok \xC3");
    REQUIRE_FALSE(e.ok());
    CHECK_THAT(e.error().message, Catch::Contains("byte offset 3"));
}

TEST_CASE("gpt2 tokenizer: a 100 KB word without spaces and a copy share the cache", "[text][tokenizer][gpt2]") {
    const ByteLevelBpeTokenizer t = fixture_tokenizer();
    const std::string text(100000, '!');
    Result<SubwordEncoding> e = t.encode(text);
    REQUIRE(e.ok());
    CHECK(e->tokens.ids.size() == 50000);  // "!!" pairs, as "!!!!" gives
    const ByteLevelBpeTokenizer copy = t;
    for (int round = 0; round < 2; ++round) {  // the second round reads the cache
        Result<SubwordEncoding> a = copy.encode(" the Hello world café");
        REQUIRE(a.ok());
        CHECK(token_strings(t, a->tokens.ids) ==
              std::vector<std::string>{"Ġthe", "Ġ", "Hello", "Ġworld", "Ġ", "cafÃ©"});
    }
}

TEST_CASE("gpt2 files: every error is one line naming the file and, for merges, the line", "[text][tokenizer][gpt2]") {
    const std::string good_vocab = byte_vocab_json({"ab", "abc"});
    const std::string good_merges = "#version: 0.2\na b\nab c\n";
    REQUIRE(ByteLevelBpeTokenizer::from_files({"v.json", good_vocab}, {"m.txt", good_merges}).ok());
    REQUIRE(ByteLevelBpeTokenizer::from_files({"v.json", good_vocab}, {"m.txt", ""}).ok());  // no merges: bytes

    struct Case {
        std::string vocab, merges, expected;
    };
    std::string missing_newline_byte = good_vocab;
    missing_newline_byte.replace(missing_newline_byte.find("\"\xC4\x8A\""), 4, "\"xx\"");  // Ċ -> xx
    const std::vector<Case> cases = {
        {"{\"a\": 0,", good_merges, "v.json: [json.exception.parse_error.101] parse error at line 1"},
        {"[\"a\"]", good_merges, "v.json: expected a JSON object of token -> id, got array"},
        {"{}", good_merges, "v.json: no tokens"},
        {"{\"a\": 0, \"b\": 2}", good_merges, "v.json: token \"b\" has id 2; ids must be the integers 0..1"},
        {"{\"a\": 0, \"b\": -1}", good_merges, "has id -1"},
        {"{\"a\": 0, \"b\": 1.0}", good_merges, "has id 1.0"},
        {"{\"a\": 0, \"b\": \"1\"}", good_merges, "token \"b\" has id of type string"},
        {"{\"a\": 0, \"b\": 0}", good_merges, "v.json: tokens \"a\" and \"b\" both have id 0"},
        {"{\"a\": 0, \"\": 1}", good_merges, "v.json: vocabulary token 1 is empty"},
        {"{\"\xC3\": 0}", good_merges, "v.json: [json.exception.parse_error.101]"},
        {missing_newline_byte, good_merges,
         "v.json: no token for byte 0x0A (\"Ċ\"); byte-level BPE needs all 256 bytes"},
        {good_vocab, "a b\nab  c\n", "m.txt line 2: expected two symbols separated by one space, got \"ab  c\""},
        {good_vocab, "a b\n\nab c\n", "m.txt line 2: expected two symbols"},
        {good_vocab, "a b c\n", "m.txt line 1: expected two symbols"},
        {good_vocab, " ab\n", "m.txt line 1: expected two symbols"},
        {good_vocab, "a\tb\n", "m.txt line 1: expected two symbols separated by one space, got \"a\\tb\""},
        {good_vocab, "#version: 0.2\na b\nx\xC3 b\n", "m.txt line 3: invalid UTF-8 at byte offset 1"},
        {good_vocab, "a b\nab d\n", "m.txt line 2: \"abd\" is not a token of v.json"},
        {good_vocab, "a b\nq 한\n", "m.txt line 2: \"한\" is not a token of v.json"},
    };
    for (const Case& c : cases) {
        INFO(c.vocab.substr(0, 40) << " | " << c.merges);
        Result<ByteLevelBpeTokenizer> t = ByteLevelBpeTokenizer::from_files({"v.json", c.vocab}, {"m.txt", c.merges});
        REQUIRE_FALSE(t.ok());
        CHECK_THAT(t.error().message, Catch::Contains(c.expected));
        CHECK(t.error().message.find('\n') == std::string::npos);
        CHECK(is_valid_utf8(t.error().message));
    }
}

TEST_CASE("gpt2 files: a missing file is the reader's one-line error naming the path", "[text][tokenizer][gpt2]") {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(kFixtures + "gpt2/no-such-merges.txt");
    REQUIRE_FALSE(bytes.ok());
    CHECK_THAT(bytes.error().message, Catch::Contains("no-such-merges.txt"));
    CHECK(bytes.error().message.find('\n') == std::string::npos);
}
