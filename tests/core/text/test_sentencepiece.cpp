// Tests for SentencePiece models run by libsentencepiece: the Llama layout (tokenizer.model) and Marian's two
// models with vocab.json, against tests/fixtures/tokenizers/sentencepiece/oracle.json (written by
// tests/golden/make_sentencepiece_fixtures.py with Debian's python3-sentencepiece); spans, decoding, and
// bad files.
#include "io/file_bytes.h"
#include "text/marian_tokenizer.h"
#include "text/sentencepiece_model.h"
#include "text/sentencepiece_tokenizer.h"
#include "text/utf8.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace attnlab;
using nlohmann::json;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/sentencepiece/";

std::string read_fixture(const std::string& name) {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(kFixtures + name);
    REQUIRE(bytes.ok());
    return std::string(bytes->begin(), bytes->end());
}

const json& oracle() {
    static const json parsed = json::parse(read_fixture("oracle.json"));
    return parsed;
}

SentencePieceTokenizer llama_tokenizer(SentencePieceOptions options = {}) {
    const std::string bytes = read_fixture("llama/tokenizer.model");
    Result<SentencePieceTokenizer> t = SentencePieceTokenizer::from_model({"tokenizer.model", bytes}, options);
    if (!t) FAIL(t.error().message);
    return std::move(t).value();
}

MarianTokenizer marian_tokenizer() {
    const std::string source = read_fixture("marian/source.spm"), target = read_fixture("marian/target.spm"),
                      vocab = read_fixture("marian/vocab.json");
    Result<MarianTokenizer> t =
        MarianTokenizer::from_files({"source.spm", source}, {"target.spm", target}, {"vocab.json", vocab});
    if (!t) FAIL(t.error().message);
    return std::move(t).value();
}

// Pieces are the text at their spans (or, at an empty span, the token's own text), spans never go
// backwards, and together the non-empty ones cover every byte of the text that is not removed white space.
void check_spans(std::string_view text, const SubwordEncoding& e, const Vocab& vocab) {
    REQUIRE(e.spans.size() == e.tokens.ids.size());
    REQUIRE(e.tokens.pieces.size() == e.tokens.ids.size());
    for (size_t i = 0; i < e.spans.size(); ++i) {
        const TextSpan s = e.spans[i];
        REQUIRE(s.begin <= s.end);
        REQUIRE(s.end <= text.size());
        if (i > 0) CHECK(s.begin >= e.spans[i - 1].begin);
        if (s.begin != s.end) {
            CHECK(e.tokens.pieces[i] == text.substr(s.begin, s.end - s.begin));
        } else if (std::find(e.tokens.unknown.begin(), e.tokens.unknown.end(), static_cast<int>(i)) ==
                   e.tokens.unknown.end()) {
            CHECK(e.tokens.pieces[i] == vocab.token(e.tokens.ids[i]));
        }
    }
}

}  // namespace

TEST_CASE("sentencepiece: the oracle covers what it should", "[text][sentencepiece]") {
    const std::vector<std::string> texts = oracle().at("texts").get<std::vector<std::string>>();
    CHECK(texts.size() >= 100);
    const auto has = [&](const std::string& part) {
        return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.find(part) != t.npos; });
    };
    CHECK(std::find(texts.begin(), texts.end(), "") != texts.end());
    for (const char* part :
         {"안녕", "😀", "\u200d", "  ", "\t", "\n", "2024", "</s>", "<unk>", "<pad>", "<s>", ">>kor<<", "\u3000"})
        CHECK(has(part));
}

TEST_CASE("sentencepiece: tokenizer.model equals python sentencepiece on every recorded text",
          "[text][sentencepiece]") {
    const json& record = oracle().at("llama");
    const std::vector<std::string> texts = oracle().at("texts").get<std::vector<std::string>>();
    const SentencePieceTokenizer t = llama_tokenizer();
    REQUIRE(t.vocab().size() == record.at("vocab_size").get<int>());
    REQUIRE(t.bos_id() == record.at("bos_id").get<int>());
    for (size_t i = 0; i < texts.size(); ++i) {
        INFO("text " << i << ": " << json(texts[i]).dump());
        Result<SubwordEncoding> e = t.encode(texts[i]);
        REQUIRE(e.ok());
        CHECK(e->tokens.ids == record.at("ids")[i].get<std::vector<int>>());
        std::vector<std::string> pieces;
        for (int id : e->tokens.ids) pieces.push_back(t.vocab().token(id));
        CHECK(pieces == record.at("pieces")[i].get<std::vector<std::string>>());
        CHECK(t.decode(e->tokens.ids, false) == record.at("decoded")[i].get<std::string>());
        CHECK(t.decode(e->tokens.ids, true) == record.at("decoded_skip_special")[i].get<std::string>());
        CHECK(e->tokens.unknown.empty());  // byte fallback: every character has pieces
        check_spans(texts[i], *e, t.vocab());
    }
}

TEST_CASE("sentencepiece: Marian's two models and vocab.json equal the oracle on every recorded text",
          "[text][sentencepiece]") {
    const json& record = oracle().at("marian");
    const std::vector<std::string> texts = oracle().at("texts").get<std::vector<std::string>>();
    const MarianTokenizer source = marian_tokenizer();
    const MarianTokenizer target = source.target_side();
    REQUIRE(source.vocab().size() == record.at("vocab_size").get<int>());
    CHECK(source.vocab().size() <= 200);
    CHECK(source.vocab().token(source.eos_id()) == "</s>");
    CHECK(source.vocab().token(source.unk_id()) == "<unk>");
    CHECK(source.vocab().token(source.pad_id()) == "<pad>");
    CHECK(std::string(source.name()) == "SentencePiece (source.spm + vocab.json)");
    CHECK(std::string(target.name()) == "SentencePiece (target.spm + vocab.json)");
    int unknown_seen = 0;
    for (const auto& [side, t] :
         {std::pair<std::string, const MarianTokenizer*>{"source", &source}, {"target", &target}}) {
        const json& r = record.at(side);
        for (size_t i = 0; i < texts.size(); ++i) {
            INFO(side << " text " << i << ": " << json(texts[i]).dump());
            Result<SubwordEncoding> e = t->encode(texts[i]);
            REQUIRE(e.ok());
            const std::vector<int> ids = r.at("ids")[i].get<std::vector<int>>();
            const std::vector<std::string> pieces = r.at("pieces")[i].get<std::vector<std::string>>();
            CHECK(e->tokens.ids == ids);
            REQUIRE(e->tokens.ids.size() == pieces.size() + 1);  // and </s>
            CHECK(e->tokens.ids.back() == source.eos_id());
            for (size_t k = 0; k < pieces.size(); ++k) {  // a token vocab.json lacks is <unk>, and listed
                const bool unknown = std::find(e->tokens.unknown.begin(), e->tokens.unknown.end(),
                                               static_cast<int>(k)) != e->tokens.unknown.end();
                CHECK(unknown == !t->vocab().find(pieces[k]).has_value());
                if (!unknown) CHECK(t->vocab().token(e->tokens.ids[k]) == pieces[k]);
                unknown_seen += unknown;
            }
            check_spans(texts[i], *e, t->vocab());
            if (side == "target") {
                CHECK(t->decode(e->tokens.ids, false) == r.at("decoded")[i].get<std::string>());
                CHECK(t->decode(e->tokens.ids, true) == r.at("decoded_skip_special")[i].get<std::string>());
                CHECK(source.decode(e->tokens.ids, true) == t->decode(e->tokens.ids, true));  // target.spm either way
            }
        }
    }
    CHECK(unknown_seen > 0);  // Hangul through source.spm, the left-out pieces
}

TEST_CASE("sentencepiece: a language code is one token with its span, and leaves the text", "[text][sentencepiece]") {
    const MarianTokenizer source = marian_tokenizer();
    const std::string text = ">>eng<< The cat";
    Result<SubwordEncoding> e = source.encode(text);
    REQUIRE(e.ok());
    REQUIRE(e->tokens.ids.size() >= 3);
    CHECK(source.vocab().token(e->tokens.ids[0]) == ">>eng<<");
    CHECK(e->spans[0] == TextSpan{0, 7});
    CHECK(e->tokens.pieces[0] == ">>eng<<");
    // The rest is the text after the code, as if the code had not been there.
    Result<SubwordEncoding> rest = source.encode(" The cat");
    REQUIRE(rest.ok());
    CHECK(std::vector<int>(e->tokens.ids.begin() + 1, e->tokens.ids.end()) == rest->tokens.ids);
    // A code in the middle is dropped from the text (no token), and the spans after it still point past it.
    e = source.encode("the >>kor<< cat");
    REQUIRE(e.ok());
    for (int id : e->tokens.ids) CHECK(source.vocab().token(id) != ">>kor<<");
    check_spans("the >>kor<< cat", *e, source.vocab());
    CHECK(e->tokens.pieces[e->tokens.pieces.size() - 2].find("cat") != std::string::npos);
    CHECK(e->spans[e->spans.size() - 2].end == std::string("the >>kor<< cat").size());
}

TEST_CASE("sentencepiece: add_bos and add_eos, spans of byte fallback, decoding unknown ids", "[text][sentencepiece]") {
    const SentencePieceTokenizer plain = llama_tokenizer({false, false});
    const SentencePieceTokenizer both = llama_tokenizer({true, true});
    CHECK(plain.bos_id() == std::nullopt);
    CHECK(std::string(plain.name()) == "SentencePiece (tokenizer.model)");
    const std::string text = "hi 😀 안녕";
    Result<SubwordEncoding> a = plain.encode(text), b = both.encode(text);
    REQUIRE((a.ok() && b.ok()));
    REQUIRE(b->tokens.ids.size() == a->tokens.ids.size() + 2);
    CHECK(std::vector<int>(b->tokens.ids.begin() + 1, b->tokens.ids.end() - 1) == a->tokens.ids);
    CHECK(both.vocab().token(b->tokens.ids.front()) == "<s>");
    CHECK(both.vocab().token(b->tokens.ids.back()) == "</s>");
    CHECK(b->spans.back() == TextSpan{text.size(), text.size()});
    // 😀 is four <0xXX> pieces, each with the whole emoji's span.
    const size_t emoji = text.find("😀");
    int byte_pieces = 0;
    for (size_t i = 0; i < a->tokens.ids.size(); ++i) {
        if (!plain.vocab().token(a->tokens.ids[i]).starts_with("<0x")) continue;
        if (a->spans[i].begin != emoji) continue;
        CHECK(a->spans[i] == TextSpan{emoji, emoji + 4});
        CHECK(a->tokens.pieces[i] == "😀");
        ++byte_pieces;
    }
    CHECK(byte_pieces == 4);
    CHECK(plain.decode({-1, 99999}, false) == "<?-1><?99999>");
    CHECK(plain.decode(a->tokens.ids, true) == text);
    const std::vector<int> partial = {*plain.vocab().find("<0xF0>")};  // one byte of four
    CHECK(plain.decode(partial, true) == "\xEF\xBF\xBD");
    const MarianTokenizer marian = marian_tokenizer();
    CHECK(marian.decode({-3}, false) == "<?-3>");
    CHECK(is_valid_utf8(marian.decode({marian.vocab().size(), 5, marian.eos_id()}, false)));
}

TEST_CASE("sentencepiece: invalid UTF-8 text is an error naming the offset", "[text][sentencepiece]") {
    Result<SubwordEncoding> e = llama_tokenizer().encode("ok \xC3");
    REQUIRE_FALSE(e.ok());
    CHECK_THAT(e.error().message, Catch::Contains("byte offset 3"));
    e = marian_tokenizer().target_side().encode("안녕 \xFF");
    REQUIRE_FALSE(e.ok());
    CHECK_THAT(e.error().message, Catch::Contains("byte offset 7"));
}

TEST_CASE("sentencepiece: bad files are one-line errors naming the file", "[text][sentencepiece]") {
    const auto model_error = [](const std::string& bytes) {
        Result<SentencePieceModel> m = SentencePieceModel::from_bytes({"tokenizer.model", bytes});
        REQUIRE_FALSE(m.ok());
        CHECK(m.error().message.find('\n') == std::string::npos);
        CHECK(is_valid_utf8(m.error().message));
        return m.error().message;
    };
    using Catch::Contains;
    using Catch::StartsWith;
    CHECK_THAT(model_error("this is not a model\n"), StartsWith("tokenizer.model: not a SentencePiece model"));
    CHECK_THAT(model_error(""), StartsWith("tokenizer.model: not a SentencePiece model"));
    CHECK_THAT(model_error("{\"version\": \"1.0\"}"), StartsWith("tokenizer.model: not a SentencePiece model"));
    const std::string good = read_fixture("llama/tokenizer.model");
    CHECK_THAT(model_error(good.substr(0, good.size() / 2)), StartsWith("tokenizer.model: not a SentencePiece model"));
    std::string flipped = good;
    for (size_t i = 0; i < flipped.size(); i += 7) flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
    CHECK_THAT(model_error(flipped), StartsWith("tokenizer.model: not a SentencePiece model"));

    const std::string source = read_fixture("marian/source.spm"), target = read_fixture("marian/target.spm");
    const auto marian_error = [&](const std::string& vocab_json, const std::string& target_bytes) {
        Result<MarianTokenizer> t = MarianTokenizer::from_files({"source.spm", source}, {"target.spm", target_bytes},
                                                                {"vocab.json", vocab_json});
        REQUIRE_FALSE(t.ok());
        CHECK(t.error().message.find('\n') == std::string::npos);
        return t.error().message;
    };
    const std::string vocab = read_fixture("marian/vocab.json");
    CHECK_THAT(marian_error(vocab, "garbage"), StartsWith("target.spm: not a SentencePiece model"));
    CHECK_THAT(marian_error("[1, 2]", target), StartsWith("vocab.json: not a JSON object"));
    CHECK_THAT(marian_error("{\"</s>\": 0, \"<unk>\": 1, \"<pad>\": 5}", target),
               Contains("vocab.json: the id of \"<pad>\" is 5; expected a whole number in 0..2"));
    CHECK_THAT(marian_error("{\"</s>\": 0, \"<unk>\": 1, \"<pad>\": 1}", target), Contains("have the same id 1"));
    CHECK_THAT(marian_error("{\"</s>\": 0, \"<unk>\": \"1\", \"<pad>\": 2}", target),
               Contains("vocab.json: the id of \"<unk>\" is \"1\""));
    CHECK_THAT(marian_error("{\"</s>\": 0, \"a\": 1, \"<pad>\": 2}", target),
               Contains("vocab.json: has no <unk>, which Marian needs"));
    Result<SentencePieceTokenizer> eos = SentencePieceTokenizer::from_model({"tokenizer.model", target}, {true, false});
    CHECK(eos.ok());  // target.spm has <s> and </s>
}
