// The tokenizer.json fixtures of tests/fixtures/tokenizers/<folder>/ (json_bpe, unigram: made by
// make_<folder>_fixtures.mjs), and the two checks every tokenizer.json family runs on them: one recorded
// text against Hugging Face's tokenizers (oracle.json), and a bad edit of a good file as a one-line error.
#pragma once

#include "io/file_bytes.h"
#include "text/json_bpe.h"
#include "text/utf8.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace attnlab::test {

// One folder of tests/fixtures/tokenizers: its files as text, and its tokenizer.json layouts built.
struct TokenizerFixtures {
    std::string folder;  // "json_bpe", "unigram"

    std::string read(const std::string& name) const {
        const std::string path = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/" + folder + "/" + name;
        Result<std::vector<uint8_t>> bytes = io::read_file_bytes(path);
        REQUIRE(bytes.ok());
        return std::string(bytes->begin(), bytes->end());
    }

    JsonBpeTokenizer json_tokenizer(const std::string& layout) const {
        Result<JsonBpeTokenizer> t = JsonBpeTokenizer::from_json({"tokenizer.json", read(layout + ".json")});
        if (!t) FAIL(t.error().message);
        return std::move(t).value();
    }
};

// Encodes texts[i] and checks its ids and both decodings (keeping and skipping special tokens) against one
// layout's record in oracle.json, where a null decoding is the text itself. Returns the encoding.
inline SubwordEncoding check_oracle_text(const JsonBpeTokenizer& t, const nlohmann::json& record,
                                         const std::vector<std::string>& texts, size_t i) {
    Result<SubwordEncoding> e = t.encode(texts[i]);
    REQUIRE(e.ok());
    CHECK(e->tokens.ids == record.at("ids")[i].get<std::vector<int>>());
    const nlohmann::json& decoded = record.at("decoded")[i];
    const nlohmann::json& skipped = record.at("decoded_skip_special")[i];
    CHECK(t.decode(e->tokens.ids, false) == (decoded.is_null() ? texts[i] : decoded.get<std::string>()));
    CHECK(t.decode(e->tokens.ids, true) == (skipped.is_null() ? texts[i] : skipped.get<std::string>()));
    return std::move(e).value();
}

// One bad file: `edit` spoils a good tokenizer.json, and the error must start with `expected`.
struct BadEdit {
    std::string what;
    std::function<void(nlohmann::json&)> edit;
    std::string expected;
};

// Every edit of `good` (read as "tok.json") fails with one line of valid UTF-8 that starts as expected.
inline void check_bad_edits(const nlohmann::json& good, const std::vector<BadEdit>& edits) {
    for (const BadEdit& c : edits) {
        INFO(c.what);
        nlohmann::json file = good;
        c.edit(file);
        Result<JsonBpeTokenizer> t = JsonBpeTokenizer::from_json({"tok.json", file.dump()});
        REQUIRE_FALSE(t.ok());
        CHECK_THAT(t.error().message, Catch::StartsWith(c.expected));
        CHECK(t.error().message.find('\n') == std::string::npos);
        CHECK(is_valid_utf8(t.error().message));
    }
}

}  // namespace attnlab::test
