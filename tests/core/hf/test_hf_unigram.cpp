// A Hugging Face folder of the T5 family whose tokenizer is a Unigram tokenizer.json
// (tests/fixtures/tokenizers/unigram): attach_tokenizer picks it over spiece.model, and text becomes the ids
// Hugging Face's tokenizers gives (oracle.json), "</s>" last.
#include "../test_support.h"
#include "hf/hf_tokenizer.h"
#include "hf_test_folders.h"
#include "text/vocab.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/unigram/";

// A T5-family model whose sides have `vocab_size` tokens, as load_hf_folder hands it to attach_tokenizer.
Model t5_model(int vocab_size) {
    std::vector<std::string> tokens = {kPadToken, kSosToken, kEosToken, kUnkToken};
    while (static_cast<int>(tokens.size()) < vocab_size) tokens.push_back("t" + std::to_string(tokens.size()));
    auto vocab = Vocab::from_tokens(tokens);
    REQUIRE(vocab);
    auto model = make_random_model("tiny", 1, *vocab, *vocab, TokenizerKind::word);
    REQUIRE(model);
    model->config.family = Family::t5;
    model->src_vocab.reset();
    model->tgt_vocab.reset();
    return std::move(*model);
}

}  // namespace

TEST_CASE("a T5 folder's Unigram tokenizer.json tokenizes as Hugging Face's tokenizers, before spiece.model",
          "[hf][tokenizer][unigram]") {
    test::TempFolder folder;
    std::filesystem::copy(kFixtures + "t5.json", folder.file("tokenizer.json"));
    std::filesystem::copy(kFixtures + "spiece.model", folder.file("spiece.model"));
    Model model = t5_model(240);  // the file has 234 tokens; the rest are the model's own
    auto attached = attach_tokenizer(folder.path(), model);
    if (!attached) FAIL(attached.error().message);
    CHECK(attached->files_read == std::vector<std::string>{"tokenizer.json"});
    REQUIRE(model.subword_tokenizer);
    CHECK(std::string(model.subword_tokenizer->name()) == "Unigram (tokenizer.json)");
    REQUIRE(model.src_vocab);
    CHECK(model.src_vocab->size() == 240);
    CHECK(model.src_vocab->token(1) == "</s>");

    const auto oracle = nlohmann::json::parse(test::read_text(kFixtures + "oracle.json"));
    const auto texts = oracle.at("texts").get<std::vector<std::string>>();
    for (size_t i = 0; i < texts.size(); ++i) {
        INFO(i << ": " << texts[i]);
        auto e = model.subword_tokenizer->encode(texts[i]);
        REQUIRE(e);
        CHECK(e->tokens.ids == oracle.at("tokenizers").at("t5").at("ids")[i].get<std::vector<int>>());
        CHECK(e->tokens.ids.back() == 1);  // </s>
    }
}
