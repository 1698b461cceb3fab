// Tests for tokenizer.json's Unigram model (T5, Flan-T5): the three fixture layouts of
// tests/fixtures/tokenizers/unigram against Hugging Face's tokenizers (oracle.json, made by
// make_unigram_fixtures.mjs), the Viterbi segmentation and unknown characters on a hand-made model, the
// Precompiled normalizer's sources, and the errors of bad files.
#include "text/grapheme.h"
#include "text/json_bpe.h"
#include "text/sentencepiece_tokenizer.h"
#include "text/unigram_model.h"
#include "text/utf8.h"
#include "tokenizer_json_fixtures.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace attnlab;
using nlohmann::json;

namespace {

const test::TokenizerFixtures kFixtures{"unigram"};

UnigramModel model(std::vector<UnigramPiece> pieces, bool byte_fallback = false) {
    std::array<int, 256> byte_ids{};
    byte_ids.fill(-1);
    for (size_t id = 0; id < pieces.size(); ++id)
        if (pieces[id].piece == "<0xC3>")
            byte_ids[0xC3] = static_cast<int>(id);
        else if (pieces[id].piece == "<0xA9>")
            byte_ids[0xA9] = static_cast<int>(id);
    Result<UnigramModel> m = UnigramModel::build(std::move(pieces), 0, byte_fallback, byte_ids);
    REQUIRE(m.ok());
    return std::move(m).value();
}

std::vector<int> ids(const std::vector<UnigramToken>& tokens) {
    std::vector<int> out;
    for (const UnigramToken& t : tokens) out.push_back(t.id);
    return out;
}

}  // namespace

TEST_CASE("unigram: every layout equals Hugging Face's tokenizers on every recorded text", "[text][unigram]") {
    const json oracle = json::parse(kFixtures.read("oracle.json"));
    const std::vector<std::string> texts = oracle.at("texts").get<std::vector<std::string>>();
    REQUIRE(texts.size() >= 200);
    size_t matched = 0;
    for (const std::string layout : {"t5", "t5_strip", "t5_bytes"}) {
        const JsonBpeTokenizer t = kFixtures.json_tokenizer(layout);
        CHECK(std::string(t.name()) == "Unigram (tokenizer.json)");
        const json& record = oracle.at("tokenizers").at(layout);
        for (size_t i = 0; i < texts.size(); ++i) {
            INFO(layout << " text " << i << ": " << json(texts[i]).dump());
            const SubwordEncoding e = test::check_oracle_text(t, record, texts, i);
            REQUIRE(e.spans.size() == e.tokens.ids.size());
            for (const TextSpan& s : e.spans) CHECK(s.end <= texts[i].size());
            matched += e.tokens.ids == record.at("ids")[i].get<std::vector<int>>() ? 1 : 0;
        }
    }
    CHECK(matched == 3 * texts.size());
}

TEST_CASE("unigram: the best segmentation, and unknown characters fused as the library fuses them", "[text][unigram]") {
    // <unk> 0; "ab" scores higher than "a" + "b", "abc" lower than "ab" + "c".
    const UnigramModel m = model({{"<unk>", 0.0}, {"a", -1.0}, {"b", -1.0}, {"ab", -1.5}, {"c", -1.0}, {"abc", -4.0}});
    CHECK(ids(m.encode("ab")) == std::vector<int>{3});
    CHECK(ids(m.encode("abc")) == std::vector<int>{3, 4});
    CHECK(ids(m.encode("ba")) == std::vector<int>{2, 1});
    // x and y are unknown (score -4 - 10 each); next to each other they are one token of 2 bytes.
    const std::vector<UnigramToken> unknown = m.encode("axyb");
    REQUIRE(unknown.size() == 3);
    CHECK(unknown[1].id == 0);
    CHECK(unknown[1].n_bytes == 2);
    CHECK(ids(m.encode("x한a")) == std::vector<int>{0, 1});
    CHECK(m.encode("").empty());
}

TEST_CASE("unigram: byte fallback makes an unknown run its bytes when every byte has a piece", "[text][unigram]") {
    const UnigramModel m = model({{"<unk>", 0.0}, {"a", -1.0}, {"<0xC3>", -1.0}, {"<0xA9>", -1.0}}, true);
    CHECK(ids(m.encode("aé")) == std::vector<int>{1, 2, 3});  // é = C3 A9
    CHECK(ids(m.encode("a한")) == std::vector<int>{1, 0});    // 한 = ED 95 9C: no pieces
}

TEST_CASE("unigram: grapheme clusters keep marks, CR LF and Hangul jamo together", "[text][unigram]") {
    const auto clusters = [](std::string_view s) {
        std::vector<std::string> out;
        for (const TextSpan& span : grapheme_clusters(s)) out.emplace_back(s.substr(span.begin, span.end - span.begin));
        return out;
    };
    CHECK(clusters("e\u0301x") == std::vector<std::string>{"e\u0301", "x"});
    CHECK(clusters("\r\n\n") == std::vector<std::string>{"\r\n", "\n"});
    CHECK(clusters("\u1112\u1161\u11ab\u1100") == std::vector<std::string>{"\u1112\u1161\u11ab", "\u1100"});
    CHECK(clusters("a\u00adb") == std::vector<std::string>{"a", "\u00ad", "b"});
    CHECK(clusters("e\u0301\u20dd!") == std::vector<std::string>{"e\u0301\u20dd", "!"});  // an enclosing mark
}

TEST_CASE("unigram: unknown characters are listed as unknown tokens", "[text][unigram]") {
    const JsonBpeTokenizer t = kFixtures.json_tokenizer("t5");
    Result<SubwordEncoding> e = t.encode("the 中文 and <unk>");
    REQUIRE(e.ok());
    REQUIRE(e->tokens.unknown.size() == 1);  // 中文 fused; the typed <unk> is the added token
    const size_t u = static_cast<size_t>(e->tokens.unknown[0]);
    CHECK(e->tokens.ids[u] == 2);
    CHECK(e->tokens.pieces[u] == "中文");
    CHECK(t.encode("the end")->tokens.unknown.empty());
}

TEST_CASE("unigram: a normalized token keeps the characters it came from", "[text][unigram]") {
    const JsonBpeTokenizer t = kFixtures.json_tokenizer("t5");
    // Full-width letters are normalized to ASCII, and their tokens cover the full-width text.
    const std::string text = "\xEF\xBC\xA6\xEF\xBD\x95\xEF\xBD\x8C\xEF\xBD\x8C";  // ＦｕｌＬ -> "Full"
    Result<SubwordEncoding> e = t.encode(text);
    REQUIRE(e.ok());
    REQUIRE(e->tokens.ids.size() >= 2);
    CHECK(e->spans.back() == TextSpan{text.size(), text.size()});  // </s>
    size_t end = 0;
    for (size_t i = 0; i + 1 < e->spans.size(); ++i) end = std::max(end, e->spans[i].end);
    CHECK(end == text.size());
}

TEST_CASE("unigram: every error is one line naming the file and the field", "[text][unigram]") {
    const json good = json::parse(kFixtures.read("t5.json"));
    REQUIRE(JsonBpeTokenizer::from_json({"tok.json", good.dump()}).ok());
    const std::vector<test::BadEdit> cases = {
        {"vocab shape", [](json& j) { j["model"]["vocab"][5] = "x"; },
         "tok.json: model.vocab[5] is \"x\"; expected [\"piece\", score]"},
        {"vocab object", [](json& j) { j["model"]["vocab"] = json::object(); },
         "tok.json: model.vocab is not a JSON array"},
        {"no unk", [](json& j) { j["model"]["unk_id"] = nullptr; }, "tok.json: model.unk_id is null"},
        {"unk past", [](json& j) { j["model"]["unk_id"] = 100000; }, "tok.json: model.unk_id is 100000"},
        {"empty piece", [](json& j) { j["model"]["vocab"][7][0] = ""; }, "tok.json: vocabulary token 7 is empty"},
        {"twice", [](json& j) { j["model"]["vocab"][7][0] = j["model"]["vocab"][8][0]; }, "tok.json: "},
        {"charsmap base64", [](json& j) { j["normalizer"]["precompiled_charsmap"] = "%%%"; },
         "tok.json: normalizer.precompiled_charsmap is not base64"},
        {"charsmap short", [](json& j) { j["normalizer"]["precompiled_charsmap"] = "AAAA"; },
         "tok.json: normalizer.precompiled_charsmap: shorter than its 4-byte header"},
        {"charsmap trie", [](json& j) { j["normalizer"]["precompiled_charsmap"] = "/wAAAAAAAAA="; },
         "tok.json: normalizer.precompiled_charsmap: its trie runs past its end"},
        {"regex",
         [](json& j) {
             j["normalizer"] = {{"type", "Replace"}, {"pattern", {{"Regex", "\\s+"}}}, {"content", " "}};
         },
         "tok.json: normalizer.pattern is {\"Regex\":\"\\\\s+\"}; only"},
        {"byte level",
         [](json& j) {
             j["pre_tokenizer"] = {{"type", "ByteLevel"}, {"add_prefix_space", false}};
         },
         "tok.json: pre_tokenizer: ByteLevel with a Unigram model is not supported"},
        {"whitespace second",
         [](json& j) {
             j["pre_tokenizer"]["pretokenizers"] = {j["pre_tokenizer"]["pretokenizers"][1],
                                                    {{"type", "WhitespaceSplit"}}};
         },
         "tok.json: pre_tokenizer.pretokenizers[0]: Metaspace is supported only as the whole pre_tokenizer or after "
         "WhitespaceSplit"},
        {"decoder replacement", [](json& j) { j["decoder"]["replacement"] = "ab"; },
         "tok.json: decoder.replacement \"ab\" is not one character"},
        {"decoder scheme", [](json& j) { j["decoder"]["prepend_scheme"] = "sometimes"; },
         "tok.json: decoder.prepend_scheme is \"sometimes\""},
    };
    test::check_bad_edits(good, cases);
}

TEST_CASE("unigram: older T5 files' Metaspace (add_prefix_space) reads as prepend_scheme always", "[text][unigram]") {
    json j = json::parse(kFixtures.read("t5.json"));
    const json old_metaspace = {
        {"type", "Metaspace"}, {"replacement", "▁"}, {"add_prefix_space", true}, {"str_rep", "▁"}};
    j["pre_tokenizer"]["pretokenizers"][1] = old_metaspace;
    j["decoder"] = old_metaspace;
    Result<JsonBpeTokenizer> t = JsonBpeTokenizer::from_json({"tokenizer.json", j.dump()});
    REQUIRE(t.ok());
    const json oracle = json::parse(kFixtures.read("oracle.json"));
    const std::vector<std::string> texts = oracle.at("texts").get<std::vector<std::string>>();
    for (size_t i = 0; i < texts.size(); ++i) {
        INFO(i << ": " << texts[i]);
        const std::vector<int> ids = t->encode(texts[i])->tokens.ids;
        CHECK(ids == oracle.at("tokenizers").at("t5").at("ids")[i].get<std::vector<int>>());
        const json& decoded = oracle.at("tokenizers").at("t5").at("decoded")[i];
        CHECK(t->decode(ids, false) == (decoded.is_null() ? texts[i] : decoded.get<std::string>()));
    }
}

TEST_CASE("unigram: plain sentences segment as SentencePiece's own model does", "[text][unigram]") {
    // The fixture's spiece.model run by libsentencepiece (T5Tokenizer's ids: no <s>, </s> last) against its
    // tokenizer.json: the same pieces and scores, the same Viterbi.
    const std::string model = kFixtures.read("spiece.model");
    Result<SentencePieceTokenizer> spm =
        SentencePieceTokenizer::from_model({"spiece.model", model}, SentencePieceOptions{false, true});
    REQUIRE(spm.ok());
    const JsonBpeTokenizer t = kFixtures.json_tokenizer("t5");
    for (const char* text : {"The quick brown fox jumps over the lazy dog.", "translate English to German: hello",
                             "안녕하세요 세계! 모델은 토큰을 읽습니다.", "Café naïve résumé 2024-11-26",
                             "question: what is the capital of France?"}) {
        INFO(text);
        CHECK(t.encode(text)->tokens.ids == spm->encode(text)->tokens.ids);
    }
}
