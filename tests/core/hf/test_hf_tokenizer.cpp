// A Hugging Face folder's tokenizer files join its model: text becomes the ids the family's own
// tokenizer gives (tests/core/text checks those tokenizers against their oracles), with BERT's
// [CLS] … [SEP] and nothing added for GPT-2; bad or partial tokenizer files are one-line errors.
#include "../test_support.h"
#include "hf/open_model.h"
#include "hf_test_folders.h"
#include "io/model_file.h"
#include "stepper.h"
#include "text/byte_level_bpe.h"
#include "text/json_bpe.h"
#include "text/wordpiece.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace attnlab;
using test::hf_fixture;

namespace {

constexpr int kVocab = 293;  // tests/fixtures/tokenizers/gpt2: 256 bytes, 36 merges, <|endoftext|>
const std::string kTokenizers = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/";

void copy_in(const test::TempFolder& folder, const std::string& from) {
    std::filesystem::copy(from, folder.file(std::filesystem::path(from).filename().string()));
}

// hf_bert as it is (vocab_size 50) with the 43-token vocab.txt of tests/fixtures/tokenizers/bert.
void write_bert_folder(const test::TempFolder& folder) {
    for (const char* name : {"config.json", "model.safetensors"}) copy_in(folder, hf_fixture("hf_bert") + "/" + name);
    copy_in(folder, kTokenizers + "bert/vocab.txt");
}

// hf_gpt2 with its vocabulary grown from 50 to the 293 tokens of tests/fixtures/tokenizers/gpt2
// (new rows of wte are small fixed numbers), and that tokenizer's vocab.json and merges.txt.
void write_gpt2_folder(const test::TempFolder& folder) {
    test::write_edited_copy(
        "hf_gpt2", folder, [](nlohmann::json& j) { j["vocab_size"] = kVocab; },
        [](std::map<std::string, Tensor>& tensors) {
            Tensor& wte = tensors.at("wte.weight");
            const int64_t rows = wte.dim(0), width = wte.dim(1);
            Tensor grown({kVocab, width});
            for (int64_t r = 0; r < kVocab; ++r)
                for (int64_t c = 0; c < width; ++c)
                    grown.data[r * width + c] =
                        r < rows ? wte.data[r * width + c] : 0.01f * static_cast<float>((r * 7 + c) % 13 - 6);
            wte = std::move(grown);
        });
    copy_in(folder, kTokenizers + "gpt2/vocab.json");
    copy_in(folder, kTokenizers + "gpt2/merges.txt");
}

// `fixture` (a Llama-template folder) with its vocabulary grown to `vocab` rows (new rows of embed_tokens and
// lm_head small fixed numbers), and tests/fixtures/tokenizers/json_bpe/<layout>.json as its tokenizer.json.
void write_json_tokenizer_folder(const test::TempFolder& folder, const std::string& fixture, const std::string& layout,
                                 int vocab) {
    test::write_edited_copy(
        fixture, folder, [vocab](nlohmann::json& j) { j["vocab_size"] = vocab; },
        [vocab](std::map<std::string, Tensor>& tensors) {
            for (const char* name : {"model.embed_tokens.weight", "lm_head.weight"}) {
                auto it = tensors.find(name);
                if (it == tensors.end()) continue;  // tied: no lm_head
                Tensor& table = it->second;
                const int64_t rows = table.dim(0), width = table.dim(1);
                Tensor grown({vocab, width});
                for (int64_t r = 0; r < vocab; ++r)
                    for (int64_t c = 0; c < width; ++c)
                        grown.data[r * width + c] =
                            r < rows ? table.data[r * width + c] : 0.01f * static_cast<float>((r * 5 + c) % 11 - 5);
                table = std::move(grown);
            }
        });
    std::filesystem::copy(kTokenizers + "json_bpe/" + layout + ".json", folder.file("tokenizer.json"));
}

std::string text_of(const std::string& path) { return test::read_text(path); }

std::string open_error(const test::TempFolder& folder) {
    auto loaded = open_model(folder.path());
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().message.find('\n') == std::string::npos);
    return loaded.error().message;
}

}  // namespace

TEST_CASE("a BERT folder's vocab.txt tokenizes text with [CLS] and [SEP]", "[hf][tokenizer]") {
    test::TempFolder folder;
    write_bert_folder(folder);
    auto loaded = open_model(folder.path());
    REQUIRE(loaded);
    const Model& model = loaded->model;
    REQUIRE(model.subword_tokenizer);
    CHECK(tokenizer_name(model) == "WordPiece");
    CHECK(loaded->tokenizer.files_read == std::vector<std::string>{"vocab.txt"});

    // vocab.txt has 43 tokens, the model 50: ids 43..49 exist in the model only.
    REQUIRE(model.src_vocab);
    CHECK(model.src_vocab->size() == 50);
    CHECK(model.src_vocab->token(6) == "cat");
    CHECK(model.src_vocab->token(43) == "<?43>");

    // Lower-cased, "cats" -> cat ##s, an unknown word -> [UNK]; nothing added after [SEP].
    auto tokens = encode_source_text(model, "The cats play zebra");
    REQUIRE(tokens);
    CHECK(tokens->ids == std::vector<int>{2, 5, 6, 10, 8, 1, 3});
    CHECK(tokens->pieces == std::vector<std::string>{"[CLS]", "The", "cat", "s", "play", "zebra", "[SEP]"});
    CHECK(tokens->unknown == std::vector<int>{5});

    // The text runs as those ids do.
    ForwardInputs from_text, from_ids;
    from_text.src_ids = tokens->ids;
    from_ids.src_ids = {2, 5, 6, 10, 8, 1, 3};
    auto a = Stepper::create(model.config, model.weights, from_text),
         b = Stepper::create(model.config, model.weights, from_ids);
    REQUIRE((a && b));
    a->run_all();
    b->run_all();
    const std::string last = a->steps().back().path;
    CHECK(test::max_abs_diff(*a->output(last), *b->output(last)) == 0.0f);
}

TEST_CASE("tokenizer_config.json's do_lower_case is followed", "[hf][tokenizer]") {
    test::TempFolder folder;
    write_bert_folder(folder);
    test::write_text(folder.file("tokenizer_config.json"), R"({"do_lower_case": false, "model_max_length": 512})");
    auto loaded = open_model(folder.path());
    REQUIRE(loaded);
    CHECK(loaded->tokenizer.files_read == std::vector<std::string>{"vocab.txt", "tokenizer_config.json"});
    auto tokens = encode_source_text(loaded->model, "The cat");
    REQUIRE(tokens);
    CHECK(tokens->ids == std::vector<int>{2, 1, 6, 3});  // "The" is not in the cased vocabulary
}

TEST_CASE("a GPT-2 folder's vocab.json and merges.txt tokenize text as GPT-2 does", "[hf][tokenizer]") {
    test::TempFolder folder;
    write_gpt2_folder(folder);
    auto loaded = open_model(folder.path());
    REQUIRE(loaded);
    const Model& model = loaded->model;
    REQUIRE(model.subword_tokenizer);
    CHECK(loaded->tokenizer.files_read == std::vector<std::string>{"vocab.json", "merges.txt"});
    REQUIRE(model.tgt_vocab);
    CHECK(model.tgt_vocab->size() == 293);

    auto reference = ByteLevelBpeTokenizer::from_files({"vocab.json", text_of(kTokenizers + "gpt2/vocab.json")},
                                                       {"merges.txt", text_of(kTokenizers + "gpt2/merges.txt")});
    REQUIRE(reference);
    const std::string text = "the cat sat, 한국<|endoftext|>";
    auto want = reference->encode(text);
    auto got = encode_target_text(model, text);
    REQUIRE((want && got));
    CHECK(got->ids == want->tokens.ids);  // no <sos> in front: GPT-2 adds nothing
    CHECK(got->pieces == want->tokens.pieces);
    CHECK(got->ids.back() == 292);  // <|endoftext|>, one token

    CHECK(got->ids.size() > 12);  // longer than n_positions: refused when run, not cut
    ForwardInputs inputs;
    inputs.tgt_ids = got->ids;
    auto too_long = Stepper::create(model.config, model.weights, inputs);
    REQUIRE_FALSE(too_long);
    CHECK_THAT(too_long.error().message, Catch::Contains("12"));
    inputs.tgt_ids.resize(12);
    auto stepper = Stepper::create(model.config, model.weights, inputs);
    if (!stepper) FAIL(stepper.error().message);
    stepper->run_all();
    CHECK(stepper->output(stepper->steps().back().path)->dim(0) == 12);
}

TEST_CASE("bad or partial tokenizer files are one-line errors naming the file", "[hf][tokenizer]") {
    using Catch::Contains;
    {
        test::TempFolder folder;  // the fixture tokenizer has 293 tokens, hf_gpt2 only 50
        test::write_edited_copy("hf_gpt2", folder, nullptr, nullptr);
        copy_in(folder, kTokenizers + "gpt2/vocab.json");
        copy_in(folder, kTokenizers + "gpt2/merges.txt");
        CHECK_THAT(open_error(folder), Contains("vocab.json: has 293 tokens, more than config.json's vocab_size 50"));
    }
    {
        test::TempFolder folder;
        write_gpt2_folder(folder);
        std::filesystem::remove(folder.file("merges.txt"));
        CHECK_THAT(open_error(folder), Contains("has vocab.json but not merges.txt; GPT-2's tokenizer needs both"));
    }
    {
        test::TempFolder folder;
        write_gpt2_folder(folder);
        test::write_text(folder.file("merges.txt"), "#version: 0.2\nĠ t\nno_such_symbol x\n");
        CHECK_THAT(open_error(folder), Contains("merges.txt"));
    }
    {
        test::TempFolder folder;
        write_bert_folder(folder);
        test::write_text(folder.file("tokenizer_config.json"), R"({"do_lower_case": "yes"})");
        CHECK_THAT(open_error(folder), Contains("tokenizer_config.json: \"do_lower_case\" is not true or false"));
    }
    {
        test::TempFolder folder;
        write_bert_folder(folder);
        test::write_text(folder.file("vocab.txt"), "[PAD]\n[UNK]\n\n[CLS]\n");
        CHECK_THAT(open_error(folder), Contains("vocab.txt"));
    }
}

TEST_CASE("a folder without its family's tokenizer files runs on ids and refuses text", "[hf][tokenizer]") {
    test::TempFolder folder;
    test::write_edited_copy("hf_bert", folder, nullptr, nullptr);
    test::write_text(folder.file("tokenizer.json"), "{}");
    auto loaded = open_model(folder.path());
    REQUIRE(loaded);
    CHECK_FALSE(loaded->model.subword_tokenizer);
    CHECK(tokenizer_name(loaded->model) == "no");
    CHECK(loaded->tokenizer.files_read.empty());
    CHECK(loaded->tokenizer.files_unread == std::vector<std::string>{"tokenizer.json"});
    auto tokens = encode_source_text(loaded->model, "the cat");
    REQUIRE_FALSE(tokens);
    CHECK_THAT(tokens.error().message, Catch::Contains("give token ids instead of text"));
}

TEST_CASE("a folder with a tokenizer saved as our model file reopens, on ids", "[hf][tokenizer]") {
    test::TempFolder folder;
    write_bert_folder(folder);
    auto loaded = open_model(folder.path());
    REQUIRE(loaded);
    REQUIRE(io::write_model(folder.file("saved.safetensors"), loaded->model));
    auto reopened = open_model(folder.file("saved.safetensors"));
    if (!reopened) FAIL(reopened.error().message);
    CHECK_FALSE(reopened->model.subword_tokenizer);
    CHECK_FALSE(reopened->model.src_vocab);
    CHECK(reopened->model.weights.at("embeddings.word_embeddings.weight").data.size() == 50 * 32);
}

TEST_CASE("a Llama-template folder's tokenizer.json tokenizes text with the BOS its template adds", "[hf][tokenizer]") {
    struct Case {
        const char* fixture;
        const char* layout;
        int vocab;
        std::optional<int> bos;  // what the template puts first
    };
    for (const Case& c : {Case{"hf_llama", "llama3", 455, 450}, Case{"hf_mistral", "llama2", 488, 1},
                          Case{"hf_qwen2", "qwen2", 440, std::nullopt}}) {
        INFO(c.layout);
        test::TempFolder folder;
        write_json_tokenizer_folder(folder, c.fixture, c.layout, c.vocab);
        auto loaded = open_model(folder.path());
        if (!loaded) FAIL(loaded.error().message);
        const Model& model = loaded->model;
        CHECK(loaded->tokenizer.files_read == std::vector<std::string>{"tokenizer.json"});
        REQUIRE(model.tgt_vocab);
        CHECK(model.tgt_vocab->size() == c.vocab);

        auto reference =
            JsonBpeTokenizer::from_json({"tokenizer.json", text_of(kTokenizers + "json_bpe/" + c.layout + ".json")});
        REQUIRE(reference);
        const std::string text = "The cat sat 123 안녕 🙂";
        auto want = reference->encode(text);
        auto got = encode_target_text(model, text);
        REQUIRE((want && got));
        CHECK(got->ids == want->tokens.ids);  // the tokenizer's ids, BOS included, no <sos> of ours added
        CHECK(reference->bos_id() == c.bos);
        if (c.bos) CHECK(got->ids.front() == *c.bos);
        ForwardInputs inputs;
        inputs.tgt_ids = got->ids;
        auto stepper = Stepper::create(model.config, model.weights, inputs);
        if (!stepper) FAIL(stepper.error().message);
        stepper->run_all();
        CHECK(stepper->output("logits")->dim(0) == static_cast<int64_t>(got->ids.size()));
    }
}

TEST_CASE("a tokenizer.json larger than the model's vocabulary is one line naming the file", "[hf][tokenizer]") {
    test::TempFolder folder;
    write_json_tokenizer_folder(folder, "hf_llama", "llama3", 50);  // the model keeps its 50 rows
    CHECK_THAT(open_error(folder), Catch::Contains("tokenizer.json: has 455 tokens, more than config.json's "
                                                   "vocab_size 50"));
}
