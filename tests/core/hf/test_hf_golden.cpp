// Hugging Face GPT-2 and BERT folders (tests/golden/make_hf_golden.py), opened as they are and
// as the other ways real files name their tensors, must give PyTorch's outputs within 1e-4.
#include "../test_support.h"
#include "forward/step_path.h"
#include "hf/open_model.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "io/model_file.h"
#include "stepper.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using test::check_matches;
using test::Expected;
using test::hf_fixture;
using test::open;
using test::read_expected;
using test::run;

TEST_CASE("a GPT-2 folder as the hub names its tensors matches PyTorch within 1e-4", "[hf]") {
    const LoadedModel loaded = open(hf_fixture("hf_gpt2"));
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::gpt2 && c.arch == Arch::decoder_only && c.norm_first && c.final_norm));
    CHECK((c.d_model == 32 && c.n_heads == 4 && c.n_decoder_layers == 2 && c.d_ff == 128 && c.max_len == 12));
    CHECK((c.activation == Activation::gelu_tanh && c.tie_embeddings && !c.scale_embedding && c.pad_id == -1));
    const Expected expected = read_expected("hf_gpt2");
    const Stepper stepper = run(loaded.model, expected.inputs);
    check_matches(stepper, expected);
    CHECK(expected.tensors.size() == 7);

    // Every parameter is read in place from the mapped file; the mask buffers are not parameters.
    for (const auto& [name, tensor] : loaded.model.weights.all()) {
        INFO(name);
        CHECK(tensor->data.is_view());
    }
    CHECK(loaded.unused_tensors ==
          std::vector<std::string>{"h.0.attn.bias", "h.0.attn.masked_bias", "h.1.attn.bias", "h.1.attn.masked_bias"});
    // Conv1D weights are read as (in, out): the formula has no transpose.
    const Step& q = stepper.step(*stepper.find("decoder.layers.0.self_attn.q"));
    CHECK_THAT(q.formula, Catch::StartsWith("Q = x·W_Q + b_Q"));
    CHECK(q.params == std::vector<std::string>{"h.0.attn.c_attn.weight", "h.0.attn.c_attn.bias"});
}

TEST_CASE("a GPT-2 folder with its weights in two shards matches PyTorch, read in place from both", "[hf]") {
    test::TempFolder folder;
    test::write_sharded_copy("hf_gpt2", folder, "h.1");  // h.0.* in the first file; h.1.*, ln_f, wpe, wte in the second
    const LoadedModel loaded = open(folder.path());
    CHECK(loaded.format == "Hugging Face gpt2 folder, weights in 2 shards");
    for (const auto& [name, tensor] : loaded.model.weights.all()) {
        INFO(name);
        CHECK(tensor->data.is_view());
    }
    CHECK(loaded.unused_tensors ==
          std::vector<std::string>{"h.0.attn.bias", "h.0.attn.masked_bias", "h.1.attn.bias", "h.1.attn.masked_bias"});
    const Expected expected = read_expected("hf_gpt2");
    const Stepper sharded = run(loaded.model, expected.inputs);
    check_matches(sharded, expected);
    const Stepper single = run(open(hf_fixture("hf_gpt2")).model, expected.inputs);
    CHECK(test::bit_equal(*sharded.output("logits"), *single.output("logits")));
}

TEST_CASE("a GPT-2 saved by GPT2LMHeadModel (transformer. prefix, lm_head copy) gives the same outputs", "[hf]") {
    test::TempFolder folder;
    test::write_edited_copy("hf_gpt2", folder, nullptr, [](std::map<std::string, Tensor>& t) {
        test::rename_tensors([](const std::string& n) { return "transformer." + n; })(t);
        t["lm_head.weight"] = t.at("transformer.wte.weight");  // tied: HF ignores it, and so do we
    });
    const LoadedModel loaded = open(folder.path());
    CHECK(loaded.model.weights.contains("h.0.attn.c_attn.weight"));
    CHECK(std::count(loaded.unused_tensors.begin(), loaded.unused_tensors.end(), "lm_head.weight") == 1);
    const Expected expected = read_expected("hf_gpt2");
    check_matches(run(loaded.model, expected.inputs), expected);
}

TEST_CASE("a BERT folder saved by BertForMaskedLM matches PyTorch within 1e-4, token types included", "[hf]") {
    const LoadedModel loaded = open(hf_fixture("hf_bert"));
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::bert && c.arch == Arch::encoder_only && !c.norm_first && !c.final_norm));
    CHECK((c.type_vocab_size == 2 && c.embedding_norm && c.output_head == OutputHead::transform));
    CHECK((c.activation == Activation::gelu && c.layer_norm_eps == 1e-12f && c.pad_id == 0));
    const Expected expected = read_expected("hf_bert");
    REQUIRE(expected.inputs.src_token_types.size() == expected.inputs.src_ids.size());
    const Stepper stepper = run(loaded.model, expected.inputs);
    check_matches(stepper, expected);
    CHECK(expected.tensors.size() == 9);
    // The I64 position_ids buffer does not stop the model from loading.
    CHECK(loaded.unused_tensors == std::vector<std::string>{"bert.embeddings.position_ids"});

    // The new steps are named, titled and written out like the others.
    for (const char* path : {"src.token_type", "src.input", "src.embed_norm", "head.transform", "head.norm"}) {
        INFO(path);
        const auto i = stepper.find(path);
        REQUIRE(i);
        CHECK_FALSE(stepper.step(*i).title.empty());
        CHECK_FALSE(stepper.step(*i).formula.empty());
    }
    CHECK(stepper.step(*stepper.find("src.embed_norm")).params ==
          std::vector<std::string>{"embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias"});
    CHECK(step_paths(stepper.step(*stepper.find("src.input")).inputs) ==
          std::vector<std::string>{"src.embed", "src.pos", "src.token_type"});
}

TEST_CASE("token types change only what reads them", "[hf]") {
    const LoadedModel loaded = open(hf_fixture("hf_bert"));
    Expected expected = read_expected("hf_bert");
    const Stepper with_types = run(loaded.model, expected.inputs);
    expected.inputs.src_token_types.clear();  // all type 0
    const Stepper without = run(loaded.model, expected.inputs);
    CHECK(test::bit_equal(*with_types.output("src.embed"), *without.output("src.embed")));
    CHECK_FALSE(test::bit_equal(*with_types.output("src.token_type"), *without.output("src.token_type")));
    CHECK(
        test::max_abs_diff(
            *without.output("src.token_type"),
            Tensor::from_matrix(
                loaded.model.weights.at("embeddings.token_type_embeddings.weight").matrix().row(0).replicate(9, 1))) ==
        0.0f);

    expected.inputs.src_token_types = {0, 2};
    auto bad = Stepper::create(loaded.model.config, loaded.model.weights, expected.inputs);
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains("token type 2 at source position 1"));
}

TEST_CASE("a BertModel file (no prefix, no MLM head, pooler, gamma/beta) ends at the encoder's output", "[hf]") {
    test::TempFolder folder;
    test::write_edited_copy("hf_bert", folder, nullptr, [](std::map<std::string, Tensor>& t) {
        test::rename_tensors([](const std::string& n) -> std::string {
            if (n.starts_with("cls.")) return "";
            std::string name = n.substr(std::string("bert.").size());
            if (name.ends_with("LayerNorm.weight")) return name.substr(0, name.size() - 6) + "gamma";
            if (name.ends_with("LayerNorm.bias")) return name.substr(0, name.size() - 4) + "beta";
            return name;
        })(t);
        t["pooler.dense.weight"] = Tensor({32, 32});
        t["pooler.dense.bias"] = Tensor({32});
    });
    const LoadedModel loaded = open(folder.path());
    CHECK(loaded.model.config.output_head == OutputHead::none);
    CHECK(loaded.unused_tensors == std::vector<std::string>{"pooler.dense.bias", "pooler.dense.weight"});
    const Expected expected = read_expected("hf_bert");
    const Stepper stepper = run(loaded.model, expected.inputs);
    check_matches(stepper, expected, {"head.norm", "logits"});
    CHECK(stepper.steps().back().path == "encoder.output");
    CHECK_FALSE(stepper.find("logits"));
}

TEST_CASE("a weight edit copies the mapped tensor; the mapping and other snapshots keep theirs", "[hf]") {
    const LoadedModel loaded = open(hf_fixture("hf_gpt2"));
    const Expected expected = read_expected("hf_gpt2");
    Stepper stepper = run(loaded.model, expected.inputs);
    const float before = loaded.model.weights.at("h.1.mlp.c_fc.weight").data[5];
    REQUIRE(stepper.set_weight_value("h.1.mlp.c_fc.weight", 5, before + 1.0f));
    CHECK_FALSE(stepper.weights().at("h.1.mlp.c_fc.weight").data.is_view());
    CHECK(stepper.weights().at("h.1.mlp.c_fc.weight").data[5] == before + 1.0f);
    CHECK(loaded.model.weights.at("h.1.mlp.c_fc.weight").data[5] == before);
    CHECK(stepper.weights().shared("wte.weight") == loaded.model.weights.shared("wte.weight"));
    CHECK(test::max_abs_diff(*stepper.output("logits"), expected.tensors.at("logits")) > 1e-4f);
    check_matches(stepper, expected, {"decoder.layers.1.residual2", "decoder.output", "logits"});
}

TEST_CASE("an opened Hugging Face model saves as our model file and loads back the same", "[hf]") {
    for (const char* fixture : {"hf_gpt2", "hf_bert", "hf_marian"}) {
        INFO(fixture);
        const LoadedModel loaded = open(hf_fixture(fixture));
        test::TempFolder folder;
        REQUIRE(io::write_model(folder.file("model.safetensors"), loaded.model));
        auto again = io::read_model(folder.file("model.safetensors"));
        if (!again) FAIL(again.error().message);
        CHECK(again->config == loaded.model.config);
        const Expected expected = read_expected(fixture);
        check_matches(run(*again, expected.inputs), expected);
    }
}
