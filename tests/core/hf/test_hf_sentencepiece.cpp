// Hugging Face folders whose tokenizer is SentencePiece: a Llama folder with tokenizer.model and no
// tokenizer.json, and Marian's source.spm + target.spm + vocab.json. Text becomes the ids the oracle
// (tests/fixtures/tokenizers/sentencepiece/oracle.json) records; tokenizer.json keeps priority; bad files are
// one-line errors naming the file.
#include "../test_support.h"
#include "hf/hf_tokenizer.h"
#include "hf/open_model.h"
#include "hf_test_folders.h"
#include "stepper.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/";

const nlohmann::json& oracle() {
    static const nlohmann::json parsed =
        nlohmann::json::parse(test::read_text(kFixtures + "sentencepiece/oracle.json"));
    return parsed;
}

void copy_in(const test::TempFolder& folder, const std::string& from) {
    std::filesystem::copy(from, folder.file(std::filesystem::path(from).filename().string()));
}

// hf_llama with its vocabulary grown to the fixture tokenizer.model's pieces (new rows of embed_tokens and
// lm_head small fixed numbers), and that tokenizer.model with its tokenizer_config.json.
void write_llama_folder(const test::TempFolder& folder) {
    const int vocab = oracle().at("llama").at("vocab_size").get<int>();
    test::write_edited_copy(
        "hf_llama", folder, [vocab](nlohmann::json& j) { j["vocab_size"] = vocab; },
        [vocab](std::map<std::string, Tensor>& tensors) {
            for (const char* name : {"model.embed_tokens.weight", "lm_head.weight"}) {
                Tensor& table = tensors.at(name);
                const int64_t rows = table.dim(0), width = table.dim(1);
                Tensor grown({vocab, width});
                for (int64_t r = 0; r < vocab; ++r)
                    for (int64_t c = 0; c < width; ++c)
                        grown.data[r * width + c] =
                            r < rows ? table.data[r * width + c] : 0.01f * static_cast<float>((r * 3 + c) % 7 - 3);
                table = std::move(grown);
            }
        });
    copy_in(folder, kFixtures + "sentencepiece/llama/tokenizer.model");
    copy_in(folder, kFixtures + "sentencepiece/llama/tokenizer_config.json");
}

void write_marian_files(const test::TempFolder& folder) {
    for (const char* name : {"source.spm", "target.spm", "vocab.json", "tokenizer_config.json"})
        copy_in(folder, kFixtures + "sentencepiece/marian/" + name);
    test::write_text(folder.file("config.json"), R"({"model_type": "marian"})");
}

// An encoder-decoder model of the Marian family with vocab.json's V tokens on both sides, as
// load_hf_folder hands it to attach_tokenizer.
Model marian_model() {
    const int vocab_size = oracle().at("marian").at("vocab_size").get<int>();
    std::vector<std::string> tokens = {kPadToken, kSosToken, kEosToken, kUnkToken};
    while (static_cast<int>(tokens.size()) < vocab_size) tokens.push_back("t" + std::to_string(tokens.size()));
    auto vocab = Vocab::from_tokens(tokens);
    REQUIRE(vocab);
    auto model = make_random_model("tiny", 1, *vocab, *vocab, TokenizerKind::word);
    REQUIRE(model);
    model->config.family = Family::marian;
    model->src_vocab.reset();
    model->tgt_vocab.reset();
    return std::move(*model);
}

std::string open_error(const test::TempFolder& folder) {
    auto loaded = open_model(folder.path());
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().message.find('\n') == std::string::npos);
    return loaded.error().message;
}

}  // namespace

TEST_CASE("a Llama folder with only tokenizer.model tokenizes text as SentencePiece does, with BOS",
          "[hf][tokenizer][sentencepiece]") {
    test::TempFolder folder;
    write_llama_folder(folder);
    auto loaded = open_model(folder.path());
    if (!loaded) FAIL(loaded.error().message);
    const Model& model = loaded->model;
    CHECK(loaded->tokenizer.files_read == std::vector<std::string>{"tokenizer.model", "tokenizer_config.json"});
    CHECK(loaded->tokenizer.files_unread.empty());
    CHECK(tokenizer_name(model) == "SentencePiece (tokenizer.model)");
    REQUIRE(model.tgt_vocab);
    CHECK(model.tgt_vocab->size() == oracle().at("llama").at("vocab_size").get<int>());
    const auto texts = oracle().at("texts").get<std::vector<std::string>>();
    const nlohmann::json& ids = oracle().at("llama").at("ids");
    for (size_t i = 0; i < texts.size(); ++i) {
        INFO("text " << i << ": " << nlohmann::json(texts[i]).dump());
        auto got = encode_target_text(model, texts[i]);
        REQUIRE(got);
        CHECK(got->ids == ids[i].get<std::vector<int>>());  // <s> first (add_bos_token), no <sos> of ours
    }
    auto tokens = encode_target_text(model, "The cat 안녕 😀");
    REQUIRE(tokens);
    CHECK(tokens->ids.front() == oracle().at("llama").at("bos_id").get<int>());
    ForwardInputs inputs;
    inputs.tgt_ids = tokens->ids;
    auto stepper = Stepper::create(model.config, model.weights, inputs);
    if (!stepper) FAIL(stepper.error().message);
    stepper->run_all();
    CHECK(stepper->output("logits")->dim(0) == static_cast<int64_t>(tokens->ids.size()));
}

TEST_CASE("tokenizer_config.json's add_bos_token false leaves <s> out of a tokenizer.model folder's ids",
          "[hf][tokenizer][sentencepiece]") {
    test::TempFolder folder;
    write_llama_folder(folder);
    test::write_text(folder.file("tokenizer_config.json"), R"({"add_bos_token": false, "legacy": true})");
    auto loaded = open_model(folder.path());
    if (!loaded) FAIL(loaded.error().message);
    const auto texts = oracle().at("texts").get<std::vector<std::string>>();
    for (size_t i = 0; i < texts.size(); i += 7) {
        INFO("text " << i << ": " << nlohmann::json(texts[i]).dump());
        auto got = encode_target_text(loaded->model, texts[i]);
        REQUIRE(got);
        std::vector<int> want = oracle().at("llama").at("ids")[i].get<std::vector<int>>();
        want.erase(want.begin());  // the oracle's <s>
        CHECK(got->ids == want);
    }
}

TEST_CASE("tokenizer.json keeps priority over tokenizer.model", "[hf][tokenizer][sentencepiece]") {
    test::TempFolder folder;
    write_llama_folder(folder);
    // The json_bpe fixture's Llama 2 layout has 488 tokens, more than the 384 rows: that error shows which
    // file was read.
    std::filesystem::copy(kFixtures + "json_bpe/llama2.json", folder.file("tokenizer.json"));
    CHECK_THAT(open_error(folder), Catch::Contains("tokenizer.json: has 488 tokens"));
    test::write_edited_copy(
        "hf_llama", folder, [](nlohmann::json& j) { j["vocab_size"] = 488; },
        [](std::map<std::string, Tensor>& tensors) {
            for (const char* name : {"model.embed_tokens.weight", "lm_head.weight"}) {
                Tensor& table = tensors.at(name);
                Tensor grown({488, table.dim(1)});
                std::copy(table.data.begin(), table.data.end(), grown.data.begin());
                table = std::move(grown);
            }
        });
    auto loaded = open_model(folder.path());
    if (!loaded) FAIL(loaded.error().message);
    CHECK(loaded->tokenizer.files_read == std::vector<std::string>{"tokenizer.json"});
    CHECK(loaded->tokenizer.files_unread == std::vector<std::string>{"tokenizer.model", "tokenizer_config.json"});
    CHECK(tokenizer_name(loaded->model) == "BPE with byte fallback (tokenizer.json)");
}

TEST_CASE("a bad tokenizer.model or tokenizer_config.json is one line naming the file",
          "[hf][tokenizer][sentencepiece]") {
    using Catch::Contains;
    {
        test::TempFolder folder;
        write_llama_folder(folder);
        test::write_text(folder.file("tokenizer.model"), "version https://git-lfs.github.com/spec/v1\n");
        CHECK_THAT(open_error(folder), Contains("tokenizer.model: not a SentencePiece model"));
    }
    {
        test::TempFolder folder;
        write_llama_folder(folder);
        test::write_text(folder.file("tokenizer_config.json"), R"({"add_bos_token": "yes"})");
        CHECK_THAT(open_error(folder), Contains("tokenizer_config.json: \"add_bos_token\" is not true or false"));
    }
    {
        test::TempFolder folder;  // the fixture tokenizer has 384 pieces, hf_llama only 50 rows
        test::write_edited_copy("hf_llama", folder, nullptr, nullptr);
        copy_in(folder, kFixtures + "sentencepiece/llama/tokenizer.model");
        CHECK_THAT(open_error(folder),
                   Contains("tokenizer.model: has 384 tokens, more than config.json's vocab_size 50"));
    }
}

TEST_CASE("a Marian folder's source.spm, target.spm and vocab.json tokenize each side",
          "[hf][tokenizer][sentencepiece]") {
    test::TempFolder folder;
    write_marian_files(folder);
    Model model = marian_model();
    auto attached = attach_tokenizer(folder.path(), model);
    if (!attached) FAIL(attached.error().message);
    CHECK(attached->files_read == std::vector<std::string>{"vocab.json", "source.spm", "target.spm"});
    CHECK(attached->files_unread == std::vector<std::string>{"tokenizer_config.json"});
    REQUIRE(model.src_vocab);
    REQUIRE(model.tgt_vocab);
    CHECK(model.src_vocab->tokens() == model.tgt_vocab->tokens());
    CHECK(model.src_vocab->token(0) == "</s>");
    CHECK(tokenizer_name(model) == "SentencePiece (source.spm + vocab.json)");
    CHECK(model.src_vocab->size() == model.config.src_vocab_size);
    CHECK(model.tgt_vocab->size() == model.config.tgt_vocab_size);
    CHECK(strcmp(tokenizer_files_expected(Family::marian), "source.spm + target.spm + vocab.json") == 0);
}

TEST_CASE("the Marian fixture reads text as MarianTokenizer does, its decoder input shifted right after <pad>",
          "[hf][tokenizer][sentencepiece][marian]") {
    auto loaded = open_model(test::hf_fixture("hf_marian"));  // the golden model, with the files
    if (!loaded) FAIL(loaded.error().message);
    const Model& model = loaded->model;
    REQUIRE(model.target_subword_tokenizer);
    const int start = model.config.sos_id;
    REQUIRE(model.tgt_vocab->token(start) == "<pad>");
    const auto texts = oracle().at("texts").get<std::vector<std::string>>();
    const nlohmann::json& record = oracle().at("marian");
    for (size_t i = 0; i < texts.size(); ++i) {
        INFO("text " << i << ": " << nlohmann::json(texts[i]).dump());
        auto source = encode_source_text(model, texts[i]);
        auto labels = model.target_subword_tokenizer->encode(texts[i]);
        auto target = encode_target_text(model, texts[i]);
        REQUIRE((source && labels && target));
        CHECK(source->ids == record.at("source").at("ids")[i].get<std::vector<int>>());
        const auto want_labels = record.at("target").at("ids")[i].get<std::vector<int>>();
        CHECK(labels->tokens.ids == want_labels);
        // shift_tokens_right: decoder_start_token_id, then the labels without their final </s>.
        std::vector<int> shifted = {start};
        shifted.insert(shifted.end(), want_labels.begin(), want_labels.end() - 1);
        REQUIRE(want_labels.back() == model.config.eos_id);
        CHECK(target->ids == shifted);
        CHECK(target->pieces.size() == target->ids.size());
    }
    // And the model runs on what the text gives.
    ForwardInputs inputs;
    inputs.src_ids = encode_source_text(model, "the cat sat").value().ids;
    inputs.tgt_ids = encode_target_text(model, texts.front()).value().ids;
    auto stepper = Stepper::create(model.config, model.weights, inputs);
    REQUIRE(stepper);
    stepper->run_all();
    REQUIRE(stepper->output("logits"));
    CHECK(stepper->output("logits")->shape ==
          Shape{static_cast<int64_t>(inputs.tgt_ids.size()), model.config.tgt_vocab_size});
}

TEST_CASE("a Marian folder missing one of its three tokenizer files is one line naming it",
          "[hf][tokenizer][sentencepiece]") {
    for (const char* missing : {"source.spm", "target.spm", "vocab.json"}) {
        INFO(missing);
        test::TempFolder folder;
        write_marian_files(folder);
        std::filesystem::remove(folder.file(missing));
        Model model = marian_model();
        auto attached = attach_tokenizer(folder.path(), model);
        REQUIRE_FALSE(attached);
        CHECK_THAT(attached.error().message, Catch::Contains(std::string("has no ") + missing));
        CHECK_FALSE(model.subword_tokenizer);
    }
    test::TempFolder folder;
    write_marian_files(folder);
    test::write_text(folder.file("vocab.json"), R"({"</s>": 0, "<unk>": 1})");
    Model model = marian_model();
    auto attached = attach_tokenizer(folder.path(), model);
    REQUIRE_FALSE(attached);
    CHECK_THAT(attached.error().message, Catch::Contains("vocab.json: has no <pad>, which Marian needs"));
}
