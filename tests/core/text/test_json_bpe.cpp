// Tests for tokenizer.json BPE: Llama 3's pre-tokenizer, NFC with sources, the fixture layouts of
// tests/fixtures/tokenizers/json_bpe against Hugging Face's tokenizers (oracle.json, made by
// make_json_bpe_fixtures.mjs), spans, decoding, and every kind of bad file.
#include "text/bloom_pretokenizer.h"
#include "text/byte_level.h"
#include "text/json_bpe.h"
#include "text/llama3_pretokenizer.h"
#include "text/normalized_text.h"
#include "text/unicode_normalization.h"
#include "text/utf8.h"
#include "tokenizer_json_fixtures.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace attnlab;
using nlohmann::json;

namespace {

const test::TokenizerFixtures kFixtures{"json_bpe"};
const std::vector<std::string> kLayouts = {"llama3",  "qwen2", "gpt2",  "smollm2", "llama2",
                                           "mistral", "bloom", "gemma", "olmoe", "modernbert"};

std::vector<std::string> token_strings(const SubwordTokenizer& t, const std::vector<int>& ids) {
    std::vector<std::string> out;
    for (int id : ids) out.push_back(t.vocab().token(id));
    return out;
}

std::vector<std::string> words(std::string_view text, size_t max_digits) {
    std::vector<std::string> out;
    for (const TextSpan& s : llama3_pretokenize(text, max_digits))
        out.emplace_back(text.substr(s.begin, s.end - s.begin));
    return out;
}

std::string utf8(std::u32string_view code_points) {
    std::string s;
    for (char32_t c : code_points) append_utf8(c, s);
    return s;
}

// Pieces are the text at their spans (or an added token's own text at an empty span), spans never go
// backwards, and together the non-empty ones cover every byte of the text.
void check_spans(std::string_view text, const SubwordEncoding& e, const Vocab& vocab) {
    std::vector<bool> covered(text.size(), false);
    for (size_t i = 0; i < e.spans.size(); ++i) {
        const TextSpan s = e.spans[i];
        REQUIRE(s.end <= text.size());
        if (i > 0) CHECK(s.begin >= e.spans[i - 1].begin);
        if (s.begin == s.end) {
            CHECK(e.tokens.pieces[i] == vocab.token(e.tokens.ids[i]));
        } else {
            CHECK(e.tokens.pieces[i] == text.substr(s.begin, s.end - s.begin));
        }
        for (size_t b = s.begin; b < s.end; ++b) covered[b] = true;
    }
    CHECK(std::count(covered.begin(), covered.end(), false) == 0);
}

// A byte-level tokenizer.json: the 256 byte symbols (id = byte), "ab" (256) and "abc" (257), merges
// a b and ab c, GPT-2's ByteLevel pre-tokenizer and decoder.
json minimal_tokenizer_json() {
    json vocab = json::object();
    for (int b = 0; b < 256; ++b) vocab[utf8(std::u32string(1, byte_to_symbol(static_cast<uint8_t>(b))))] = b;
    vocab["ab"] = 256;
    vocab["abc"] = 257;
    return {{"version", "1.0"},
            {"added_tokens", json::array({{{"id", 258}, {"content", "<|end|>"}, {"special", true}}})},
            {"normalizer", nullptr},
            {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}}},
            {"post_processor", nullptr},
            {"decoder", {{"type", "ByteLevel"}}},
            {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", json::array({"a b", "ab c"})}}}};
}

}  // namespace

TEST_CASE("llama3 pre-tokenizer: Hugging Face's splits of cl100k's pattern", "[text][json_bpe]") {
    using V = std::vector<std::string>;
    // Each expected list is what tokenizers 0.23.2's Split pre-tokenizer gives for the pattern.
    CHECK(words("I'M don't 'ſ 'S 'Ll 'K", 3) ==
          V{"I", "'M", " don", "'t", " '", "ſ", " '", "S", " '", "Ll", " '", "K"});
    CHECK(words("a  \n\n b", 3) == V{"a", "  \n\n", " b"});
    CHECK(words("ab\r\n\r\ncd", 3) == V{"ab", "\r\n\r\n", "cd"});
    CHECK(words("  \t\n x", 3) == V{"  \t\n", " x"});
    CHECK(words("!!!\n\n\nx", 3) == V{"!!!\n\n\n", "x"});
    CHECK(words("12345678", 3) == V{"123", "456", "78"});
    CHECK(words("12345678", 1) == V{"1", "2", "3", "4", "5", "6", "7", "8"});
    CHECK(words(" \n \n  x", 3) == V{" \n \n", " ", " x"});
    CHECK(words("x\n \ny", 3) == V{"x", "\n \n", "y"});
    CHECK(words("$hello ¿que?", 3) == V{"$hello", " ¿", "que", "?"});
    CHECK(words("\tx", 3) == V{"\tx"});  // any one non-letter, non-number, non-newline before letters
    CHECK(words("  x", 3) == V{" ", " x"});
    CHECK(words("...\n", 3) == V{"...\n"});
    CHECK(words("😀👍🏽 👨‍👩‍👧", 3) == V{"😀👍🏽", " 👨‍👩‍👧"});
    CHECK(words("e\u0301x", 3) == V{"e", "\u0301x"});  // a combining mark is no letter
    CHECK(words("a\u0085b \u0085\u0085x", 3) == V{"a", "\u0085b", " \u0085", "\u0085x"});  // U+0085 is \s
    CHECK(words("x \uFEFFy", 3) == V{"x", " \uFEFF", "y"});                                // U+FEFF is not
    CHECK(words("", 3).empty());
}

TEST_CASE("unicode: canonical composition and NFC keep where each character came from", "[text][json_bpe]") {
    CHECK(canonical_composition(U'e', 0x301) == U'é');
    CHECK(canonical_composition(0x1100, 0x1161) == U'가');
    CHECK(canonical_composition(U'가', 0x11A8) == U'각');
    CHECK(canonical_composition(U'각', 0x11A8) == std::nullopt);  // already has a final consonant
    CHECK(canonical_composition(0x915, 0x93C) == std::nullopt);   // क़: a composition exclusion
    CHECK(canonical_composition(U'a', U'b') == std::nullopt);

    const auto nfc_of = [](std::string_view text) { return nfc(NormalizedText::identity(text, {0, text.size()})); };
    NormalizedText n = nfc_of("e\u0301 \u1112\u1161\u11AB");  // e + U+0301, then 한 as three jamo
    CHECK(n.text == "é 한");
    CHECK(n.source_of({0, 2}) == TextSpan{0, 3});   // é: e and its accent
    CHECK(n.source_of({3, 6}) == TextSpan{4, 13});  // 한: the three jamo
    CHECK(nfc_of("\u212B").text == "\u00C5");       // U+212B ANGSTROM SIGN -> U+00C5
    // a + U+0301 (230) + U+0316 (220): canonical order puts U+0316 first, then U+0301 still joins a.
    n = nfc_of("a\u0301\u0316");
    CHECK(n.text == "á\u0316");
    CHECK(n.source_of({0, 2}) == TextSpan{0, 5});
    CHECK(n.source_of({2, 4}) == TextSpan{0, 5});  // the reordered run shares its source
    CHECK(nfc_of("plain ASCII").text == "plain ASCII");
}

TEST_CASE("json_bpe: every layout equals Hugging Face's tokenizers on every recorded text", "[text][json_bpe]") {
    const json oracle = json::parse(kFixtures.read("oracle.json"));
    const std::vector<std::string> texts = oracle.at("texts").get<std::vector<std::string>>();
    REQUIRE(texts.size() >= 150);
    for (const std::string& layout : kLayouts) {
        const JsonBpeTokenizer t = kFixtures.json_tokenizer(layout);
        const json& record = oracle.at("tokenizers").at(layout);
        for (size_t i = 0; i < texts.size(); ++i) {
            INFO(layout << " text " << i << ": " << json(texts[i]).dump());
            const SubwordEncoding e = test::check_oracle_text(t, record, texts, i);
            check_spans(texts[i], e, t.vocab());
            CHECK(e.tokens.unknown.empty());
        }
    }
}

TEST_CASE("json_bpe: names, the BOS token, ignore_merges and the vocabulary", "[text][json_bpe]") {
    const JsonBpeTokenizer llama3 = kFixtures.json_tokenizer("llama3");
    const JsonBpeTokenizer llama2 = kFixtures.json_tokenizer("llama2");
    CHECK(std::string(llama3.name()) == "byte-level BPE (tokenizer.json)");
    CHECK(std::string(llama2.name()) == "BPE with byte fallback (tokenizer.json)");
    REQUIRE(llama3.bos_id().has_value());
    CHECK(llama3.vocab().token(*llama3.bos_id()) == "<|begin_of_text|>");
    CHECK(llama3.vocab().size() == *llama3.vocab().find("<|eot_id|>") + 1);  // the added tokens come last
    CHECK(llama2.bos_id() == 1);
    CHECK(kFixtures.json_tokenizer("qwen2").bos_id() == std::nullopt);

    // " 세계" is a token no merge reaches: whole with ignore_merges, merged from bytes without it.
    Result<SubwordEncoding> whole = llama3.encode("안녕하세요 세계");
    REQUIRE(whole.ok());
    CHECK(token_strings(llama3, whole->tokens.ids) ==
          std::vector<std::string>{"<|begin_of_text|>", "ìķĪëħķíķĺìĦ¸ìļĶ", "ĠìĦ¸ê³Ħ"});
    CHECK(whole->tokens.pieces == std::vector<std::string>{"<|begin_of_text|>", "안녕하세요", " 세계"});
    CHECK(whole->spans == std::vector<TextSpan>{{0, 0}, {0, 15}, {15, 22}});
    json file = json::parse(kFixtures.read("llama3.json"));
    file["model"]["ignore_merges"] = false;
    const std::string text = file.dump();
    Result<JsonBpeTokenizer> merging = JsonBpeTokenizer::from_json({"tokenizer.json", text});
    REQUIRE(merging.ok());
    Result<SubwordEncoding> merged = merging->encode("안녕하세요 세계");
    REQUIRE(merged.ok());
    CHECK(merged->tokens.ids.size() > 3);
    CHECK(merging->decode(merged->tokens.ids, true) == "안녕하세요 세계");
}

TEST_CASE("json_bpe: spans of byte fallback, of a prepended ▁ and of stripped white space", "[text][json_bpe]") {
    const JsonBpeTokenizer llama2 = kFixtures.json_tokenizer("llama2");
    // " the" -> "▁▁the": the first ▁ is Prepend's own (an empty span, the token as its piece), the
    // second stands for the space.
    Result<SubwordEncoding> e = llama2.encode(" the");
    REQUIRE(e.ok());
    CHECK(token_strings(llama2, e->tokens.ids) == std::vector<std::string>{"<s>", "▁", "▁the"});
    CHECK(e->tokens.pieces == std::vector<std::string>{"<s>", "▁", " the"});
    CHECK(e->spans == std::vector<TextSpan>{{0, 0}, {0, 0}, {0, 4}});
    // 😀 has no token: its four bytes are <0xF0> <0x9F> <0x98> <0x80>, each showing the whole emoji.
    e = llama2.encode("😀");
    REQUIRE(e.ok());
    CHECK(token_strings(llama2, e->tokens.ids) ==
          std::vector<std::string>{"<s>", "▁", "<0xF0>", "<0x9F>", "<0x98>", "<0x80>"});
    CHECK(e->spans == std::vector<TextSpan>{{0, 0}, {0, 0}, {0, 4}, {0, 4}, {0, 4}, {0, 4}});
    CHECK(llama2.decode(e->tokens.ids, true) == "😀");
    CHECK(llama2.decode({1, *llama2.vocab().find("<0xF0>")}, false) == "<s>\xEF\xBF\xBD");  // a partial character
    // <|end|> takes the white space after it (rstrip): its piece is what the text spells.
    e = llama2.encode("hi<|end|> \n x");
    REQUIRE(e.ok());
    const int end_id = *llama2.vocab().find("<|end|>");
    const auto at = std::find(e->tokens.ids.begin(), e->tokens.ids.end(), end_id) - e->tokens.ids.begin();
    CHECK(e->tokens.pieces[static_cast<size_t>(at)] == "<|end|> \n ");
    CHECK(e->spans[static_cast<size_t>(at)] == TextSpan{2, 12});
    CHECK(llama2.decode({-1, 99999}, false) == "<?-1><?99999>");
}

TEST_CASE("json_bpe: decode(encode(x)) == x for random valid UTF-8 (byte-level layouts)", "[text][json_bpe]") {
    std::mt19937 rng(11);
    const auto random_code_point = [&]() -> char32_t {
        switch (rng() % 6) {
            case 0: return U" \n\t'\r"[rng() % 5];
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
    for (const std::string layout : {"llama3", "gpt2", "smollm2"}) {  // no normalizer: the text comes back
        const JsonBpeTokenizer t = kFixtures.json_tokenizer(layout);
        for (int n = 0; n < 200; ++n) {
            std::string text;
            for (int k = rng() % 40; k > 0; --k) append_utf8(random_code_point(), text);
            INFO(layout << ": " << json(text).dump());
            Result<SubwordEncoding> e = t.encode(text);
            REQUIRE(e.ok());
            CHECK(t.decode(e->tokens.ids, true) == text);
            check_spans(text, *e, t.vocab());
        }
    }
}

TEST_CASE("json_bpe: a 1000-character text without spaces is one word for Llama 2", "[text][json_bpe]") {
    // Llama 2 has no pre-tokenizer: the whole text is one word of 1000 symbols; the merge loop is
    // O(n log n), so this is quick (the benchmark in bench/ times it).
    const JsonBpeTokenizer llama2 = kFixtures.json_tokenizer("llama2");
    std::string text;
    for (int i = 0; i < 100; ++i) text += "helloworld";
    Result<SubwordEncoding> e = llama2.encode(text);
    REQUIRE(e.ok());
    CHECK(llama2.decode(e->tokens.ids, true) == text);
    check_spans(text, *e, llama2.vocab());
}

TEST_CASE("json_bpe: invalid UTF-8 text is an error naming the offset", "[text][json_bpe]") {
    for (const std::string& layout : kLayouts) {
        Result<SubwordEncoding> e = kFixtures.json_tokenizer(layout).encode("ok \xC3");
        REQUIRE_FALSE(e.ok());
        CHECK_THAT(e.error().message, Catch::Contains("byte offset 3"));
    }
}

TEST_CASE("json_bpe: every error is one line naming the file and the field", "[text][json_bpe]") {
    const json good = minimal_tokenizer_json();
    REQUIRE(JsonBpeTokenizer::from_json({"tok.json", good.dump()}).ok());

    const std::vector<test::BadEdit> cases = {
        {"model type", [](json& j) { j["model"]["type"] = "WordPiece"; },
         "tok.json: model.type \"WordPiece\" is not supported (only \"BPE\" and \"Unigram\")"},
        {"no model", [](json& j) { j.erase("model"); }, "tok.json: model is missing"},
        {"pattern",
         [](json& j) {
             j["pre_tokenizer"] = {{"type", "Split"}, {"pattern", {{"Regex", "\\s+"}}}, {"behavior", "Isolated"}};
         },
         "tok.json: unsupported pre-tokenizer pattern \"\\\\s+\" (pre_tokenizer.pattern)"},
        {"behavior",
         [](json& j) {
             j["pre_tokenizer"] = {{"type", "Sequence"},
                                   {"pretokenizers",
                                    {{{"type", "Split"},
                                      {"pattern",
                                       {{"Regex",
                                         "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| "
                                         "?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"}}},
                                      {"behavior", "Removed"}},
                                     {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
         },
         "tok.json: pre_tokenizer.pretokenizers[0]: only behavior \"Isolated\" without invert is supported"},
        {"pre-tokenizer type",
         [](json& j) {
             j["pre_tokenizer"] = {{"type", "Whitespace"}};
         },
         "tok.json: pre_tokenizer.type \"Whitespace\" is not supported"},
        {"prefix space", [](json& j) { j["pre_tokenizer"]["add_prefix_space"] = true; },
         "tok.json: pre_tokenizer.add_prefix_space true is not supported"},
        {"merge shape", [](json& j) { j["model"]["merges"][1] = "abc"; },
         "tok.json: model.merges[1] is \"abc\"; expected \"left right\" or [\"left\", \"right\"]"},
        {"merge pair",
         [](json& j) {
             j["model"]["merges"][0] = json::array({"a", 5});
         },
         "tok.json: model.merges[0] is [\"a\",5]; expected"},
        {"merge part", [](json& j) { j["model"]["merges"][1] = "ab 한"; },
         "tok.json: model.merges[1]: \"한\" is not in the vocabulary"},
        {"merge result",
         [](json& j) {
             j["model"]["merges"][1] = json::array({"ab", "d"});
         },
         "tok.json: model.merges[1]: \"abd\", what it makes, is not in the vocabulary"},
        {"merges missing", [](json& j) { j["model"].erase("merges"); }, "tok.json: model.merges is not a JSON array"},
        {"vocab id", [](json& j) { j["model"]["vocab"]["ab"] = 9999; },
         "tok.json: model.vocab[\"ab\"] is 9999; expected a whole number in 0..258"},
        {"vocab id type", [](json& j) { j["model"]["vocab"]["ab"] = "256"; },
         "tok.json: model.vocab[\"ab\"] is \"256\"; expected a whole number"},
        {"vocab twice", [](json& j) { j["model"]["vocab"]["abc"] = 256; },
         "tok.json: tokens \"ab\" and \"abc\" both have id 256"},
        {"added id", [](json& j) { j["added_tokens"][0]["id"] = 300; },
         "tok.json: added token \"<|end|>\" has id 300, past the 259 tokens of the file"},
        {"vocab hole",
         [](json& j) {
             j["added_tokens"][0]["id"] = 259;
             j["added_tokens"].push_back({{"id", 256}, {"content", "ab"}});  // shares the model's id
         },
         "tok.json: no token has id 258"},
        {"byte symbol",
         [](json& j) {
             j["model"]["vocab"].erase("Ċ");
             j["model"]["vocab"]["xx"] = 10;
         },
         "tok.json: model.vocab has no token for byte 0x0A (\"Ċ\"); byte-level BPE needs all 256"},
        {"single word", [](json& j) { j["added_tokens"][0]["single_word"] = true; },
         "tok.json: added_tokens[0] (\"<|end|>\"): single_word true is not supported"},
        {"added content", [](json& j) { j["added_tokens"][0]["content"] = 7; },
         "tok.json: added_tokens[0].content is not a string"},
        {"normalizer",
         [](json& j) {
             j["normalizer"] = {{"type", "NFKC"}};
         },
         "tok.json: normalizer.type \"NFKC\" is not supported"},
        {"normalized token",
         [](json& j) {
             j["normalizer"] = {{"type", "Prepend"}, {"prepend", "▁"}};
             j["added_tokens"][0]["normalized"] = true;
         },
         "tok.json: added token \"<|end|>\" is normalized (\"normalized\": true) and the normalizer makes it "
         "\"▁<|end|>\"; not supported"},
        {"layout", [](json& j) { j["pre_tokenizer"] = nullptr; },
         "tok.json: neither a ByteLevel pre_tokenizer nor model.byte_fallback true"},
        {"byte fallback tokens",
         [](json& j) {
             j["pre_tokenizer"] = nullptr;
             j["model"]["byte_fallback"] = true;
         },
         "tok.json: model.vocab has no token for byte 0x00 (\"<0x00>\"); byte fallback needs all 256"},
        {"dropout", [](json& j) { j["model"]["dropout"] = 0.1; }, "tok.json: model.dropout 0.1 is not supported"},
        {"subword prefix", [](json& j) { j["model"]["continuing_subword_prefix"] = "##"; },
         "tok.json: model.continuing_subword_prefix \"##\" is not supported"},
        {"post-processor",
         [](json& j) {
             j["post_processor"] = {{"type", "RobertaProcessing"}};
         },
         "tok.json: post_processor.type \"RobertaProcessing\" is not supported"},
        {"template token",
         [](json& j) {
             j["post_processor"] = json::parse(R"({"type": "TemplateProcessing", "special_tokens": {},
                 "single": [{"SpecialToken": {"id": "<s>"}}, {"Sequence": {"id": "A"}}]})");
         },
         "tok.json: post_processor.special_tokens[\"<s>\"] needs lists \"ids\" and \"tokens\" of one length"},
        {"template id",
         [](json& j) {
             j["post_processor"] = json::parse(R"({"type": "TemplateProcessing",
                 "special_tokens": {"<s>": {"id": "<s>", "ids": [300], "tokens": ["<s>"]}},
                 "single": [{"SpecialToken": {"id": "<s>"}}, {"Sequence": {"id": "A"}}]})");
         },
         "tok.json: post_processor.special_tokens[\"<s>\"].ids[0] is 300; expected a whole number in 0..258"},
        {"deep",
         [](json& j) {
             for (int k = 0; k < 20; ++k)
                 j["decoder"] = {{"type", "Sequence"}, {"decoders", json::array({j["decoder"]})}};
         },
         "tok.json: decoder.decoders[0].decoders[0].decoders[0].decoders[0].decoders[0].decoders[0].decoders[0]."
         "decoders[0].decoders[0]: Sequences nested too deep"},
        {"decoder",
         [](json& j) {
             j["decoder"] = {{"type", "WordPiece"}};
         },
         "tok.json: decoder.type \"WordPiece\" is not supported"},
        {"no decoder", [](json& j) { j["decoder"] = nullptr; }, "tok.json: decoder is null"},
        {"strip",
         [](json& j) {
             j["decoder"] = {{"type", "Strip"}, {"content", "ab"}, {"start", 1}};
         },
         "tok.json: decoder.content \"ab\" is not one character"},
    };
    test::check_bad_edits(good, cases);

    for (const std::string bad : {"{\"model\": ", "[1, 2]", "", "{\"\xC3\": 0}"}) {
        INFO(bad.size() << " bytes");
        Result<JsonBpeTokenizer> t = JsonBpeTokenizer::from_json({"tok.json", bad});
        REQUIRE_FALSE(t.ok());
        CHECK_THAT(t.error().message, Catch::StartsWith("tok.json: "));
        CHECK(t.error().message.find('\n') == std::string::npos);
        CHECK(is_valid_utf8(t.error().message));
    }
}

TEST_CASE("json_bpe: BLOOM's pre-tokenizer keeps marks and white space apart from the words", "[text][json_bpe]") {
    auto pieces = [](std::string_view text) {
        std::vector<std::string> out;
        for (const TextSpan& s : bloom_pretokenize(text)) out.emplace_back(text.substr(s.begin, s.end - s.begin));
        return out;
    };
    CHECK(pieces("Hi, you!") == std::vector<std::string>{"Hi", ",", " you", "!"});
    CHECK(pieces("a,, b  c") == std::vector<std::string>{"a", ",,", " b", " ", " c"});
    CHECK(pieces("f(x|y) 1.5") == std::vector<std::string>{"f", "(", "x", "|", "y", ")", " 1", ".", "5"});
    CHECK(pieces("你好。世界") == std::vector<std::string>{"你好", "。", "世界"});
    CHECK(pieces(" \n") == std::vector<std::string>{" \n"});
    CHECK(pieces("").empty());
}
