// A Hugging Face folder that cannot be run gets one line naming the file and what is wrong,
// never a crash and never a half-loaded model.
#include "hf/hf_config.h"
#include "hf/open_model.h"
#include "hf_test_folders.h"
#include "parallel.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

using namespace attnlab;
using test::hf_fixture;

namespace {

// The error of opening a copy of `fixture` edited so; it must be one line.
std::string error_of(const std::string& fixture, const test::ConfigEdit& edit_config,
                     const test::TensorEdit& edit_tensors = nullptr) {
    test::TempFolder folder;
    test::write_edited_copy(fixture, folder, edit_config, edit_tensors);
    auto loaded = open_model(folder.path());
    REQUIRE_FALSE(loaded);
    const std::string& m = loaded.error().message;
    CHECK(m.find('\n') == std::string::npos);
    return m;
}

std::string config_error(const std::string& json_text) {
    auto config = config_from_hf_json(json_text);
    REQUIRE_FALSE(config);
    CHECK(config.error().message.find('\n') == std::string::npos);
    return config.error().message;
}

}  // namespace

TEST_CASE("the unsupported model_type error names every model type the reader accepts", "[hf]") {
    const std::string m = config_error(R"({"model_type": "xlnet"})");
    const std::vector<std::string_view> types = hf_model_types();
    for (const char* family : {"gpt2", "bert", "llama", "smollm3", "gemma2", "gemma3_text", "granitemoe", "t5"})
        CHECK(std::find(types.begin(), types.end(), family) != types.end());
    std::string listed;
    for (std::string_view t : types) {
        listed += (listed.empty() ? "" : ", ") + std::string(t);
        // Accepted: the reader goes on to the type's fields (an error names the first missing one), never
        // "unsupported".
        INFO(t);
        auto config = config_from_hf_json(R"({"model_type": ")" + std::string(t) + "\"}");
        CHECK((config || config.error().message.find("unsupported model_type") == std::string::npos));
    }
    CHECK(m == "unsupported model_type \"xlnet\" (supported: " + listed + ")");
}

TEST_CASE("config.json errors name the field", "[hf]") {
    using Catch::Contains;
    CHECK_THAT(
        error_of("hf_gpt2", [](auto& j) { j["model_type"] = "xlnet"; }),
        Contains("config.json: unsupported model_type \"xlnet\" (supported: gpt2, bert, llama, mistral, qwen2, "));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j.erase("n_embd"); }),
               Contains("config.json: missing field \"n_embd\""));
    CHECK_THAT(error_of("hf_bert", [](auto& j) { j.erase("intermediate_size"); }),
               Contains("missing field \"intermediate_size\""));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j["n_head"] = 5; }), Contains("n_head 5 does not divide n_embd 32"));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j["n_layer"] = "2"; }),
               Contains("field \"n_layer\" must be a positive integer, not \"2\""));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j["activation_function"] = "quick_gelu"; }),
               Contains("field \"activation_function\" \"quick_gelu\" is not supported"));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j["scale_attn_by_inverse_layer_idx"] = true; }),
               Contains("field \"scale_attn_by_inverse_layer_idx\" true is not supported"));
    CHECK_THAT(error_of("hf_bert", [](auto& j) { j["position_embedding_type"] = "relative_key"; }),
               Contains("\"position_embedding_type\" \"relative_key\" is not supported"));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j["eos_token_id"] = 50256; }),
               Contains("field \"eos_token_id\" 50256 is not an id of the vocabulary of 50"));
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["bad_words_ids"] = {144}; }),
               Contains("field \"bad_words_ids\" must be a list of lists of token ids, not [144]"));
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["bad_words_ids"] = {{144}}; }),
               Contains("field \"bad_words_ids\" 144 is not an id of the vocabulary of 144"));

    // The Llama template's families.
    CHECK_THAT(error_of("hf_llama", [](auto& j) { j["num_key_value_heads"] = 3; }),
               Contains("num_key_value_heads 3 does not divide num_attention_heads 4"));
    CHECK_THAT(error_of("hf_llama",
                        [](auto& j) {
                            j["num_attention_heads"] = 5;
                            j["num_key_value_heads"] = 5;
                        }),
               Contains("num_attention_heads 5 does not divide hidden_size 32 and there is no head_dim"));
    CHECK_THAT(error_of("hf_llama",
                        [](auto& j) {
                            j["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 4.0}};
                        }),
               Contains("rope_scaling: type \"yarn\" is not supported (linear, llama3)"));
    CHECK_THAT(error_of("hf_llama3_scaled", [](auto& j) { j["rope_scaling"].erase("low_freq_factor"); }),
               Contains("rope_scaling: missing field \"low_freq_factor\""));
    CHECK_THAT(error_of("hf_llama", [](auto& j) { j["rope_theta"] = -1; }),
               Contains("field \"rope_theta\" must be a positive number, not -1"));
    CHECK_THAT(error_of("hf_llama3_scaled", [](auto& j) { j["head_dim"] = 7; }),
               Contains("head width D 7 must be even"));
    CHECK_THAT(error_of("hf_qwen2", [](auto& j) { j["use_sliding_window"] = true; }),
               Contains("field \"use_sliding_window\" true is not supported (only false)"));
    CHECK_THAT(error_of("hf_mistral", [](auto& j) { j["sliding_window"] = 0; }),
               Contains("field \"sliding_window\" must be a positive integer, not 0"));
    CHECK_THAT(error_of("hf_llama",
                        [](auto& j) {
                            j["eos_token_id"] = {999, 2};
                        }),
               Contains("field \"eos_token_id\" 999 is not an id of the vocabulary"));

    // Marian: one width for both stacks, shared embeddings, the static post-LN layout.
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["decoder_attention_heads"] = 2; }),
               Contains("decoder_attention_heads must equal encoder_attention_heads 4 (one width for both stacks)"));
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["decoder_ffn_dim"] = 64; }),
               Contains("decoder_ffn_dim must equal encoder_ffn_dim 32"));
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["share_encoder_decoder_embeddings"] = false; }),
               Contains("field \"share_encoder_decoder_embeddings\" false is not supported (only true)"));
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["normalize_before"] = true; }),
               Contains("field \"normalize_before\" true is not supported (only false)"));
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["decoder_start_token_id"] = 100000; }),
               Contains("field \"decoder_start_token_id\" 100000 is not an id of the vocabulary"));
    CHECK_THAT(error_of("hf_marian", [](auto& j) { j["encoder_attention_heads"] = 3; }),
               Contains("encoder_attention_heads 3 does not divide d_model 16"));
    CHECK_THAT(error_of("hf_marian_untied", nullptr,
                        test::rename_tensors([](const std::string& n) { return n == "lm_head.weight" ? "" : n; })),
               Contains("missing tensor 'lm_head.weight' (48, 16)"));

    CHECK(config_error("{\"model_type\": \"gpt2\", ") == "not valid JSON");
    CHECK(config_error("[\"gpt2\"]") == "not a JSON object");
    CHECK(config_error("{}") == "missing field \"model_type\"");
    // A hostile value stays on one line.
    CHECK_THAT(config_error("{\"model_type\": \"a\\nb\"}"), Contains("\"a\\nb\""));

    test::TempFolder folder;
    test::write_edited_copy("hf_gpt2", folder, nullptr, nullptr);
    test::write_text(folder.file("config.json"), "{\"model_type\": \"gpt2\",");
    auto loaded = open_model(folder.path());
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().message, Catch::EndsWith("/config.json: not valid JSON"));
}

TEST_CASE("tensor errors name the tensor as the file names it", "[hf]") {
    using Catch::Contains;
    auto drop = [](const std::string& name) { return [name](std::map<std::string, Tensor>& t) { t.erase(name); }; };
    CHECK_THAT(error_of("hf_gpt2", nullptr, drop("h.1.mlp.c_fc.weight")),
               Contains("model.safetensors: missing tensor 'h.1.mlp.c_fc.weight' (32, 128)"));
    CHECK_THAT(error_of("hf_bert", nullptr, drop("bert.encoder.layer.1.attention.self.key.bias")),
               Contains("missing tensor 'bert.encoder.layer.1.attention.self.key.bias' (32,)"));
    CHECK_THAT(error_of("hf_bert", nullptr, drop("cls.predictions.bias")),
               Contains("missing tensor 'cls.predictions.bias' (50,)"));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j["tie_word_embeddings"] = false; }),
               Contains("missing tensor 'lm_head.weight' (50, 32)"));
    CHECK_THAT(error_of("hf_gpt2", [](auto& j) { j["n_positions"] = 16; }),
               Contains("tensor 'wpe.weight' has shape (12, 32), config.json needs (16, 32)"));
    CHECK_THAT(error_of("hf_gpt2", nullptr,
                        [](std::map<std::string, Tensor>& t) {
                            t["h.0.attn.c_attn.weight"] = Tensor({96, 32});
                        }),
               Contains("tensor 'h.0.attn.c_attn.weight' has shape (96, 32), config.json needs (32, 96)"));
    CHECK_THAT(error_of("hf_gpt2", nullptr,
                        [](std::map<std::string, Tensor>& t) {
                            Tensor w = t.at("h.1.attn.c_proj.bias");
                            w.data[7] = std::numeric_limits<float>::quiet_NaN();
                            t["h.1.attn.c_proj.bias"] = w;
                        }),
               Contains("tensor 'h.1.attn.c_proj.bias' holds a non-finite value (nan) at flat index 7"));
    CHECK_THAT(error_of("hf_gpt2", nullptr,
                        [](std::map<std::string, Tensor>& t) { t["transformer.ln_f.bias"] = t.at("ln_f.bias"); }),
               Contains("tensors 'ln_f.bias' and 'transformer.ln_f.bias' are both parameter 'ln_f.bias'"));
}

TEST_CASE("the first non-finite value of a parameter is found on any number of threads", "[hf]") {
    // wpe.weight (20000, 32): 640000 values, five grains of the check's 2^17 (the last short), so 2 and 3
    // threads each search their own range; the first value named is the lowest index of all.
    auto error_with = [](std::vector<std::pair<size_t, float>> values) {
        return error_of(
            "hf_gpt2", [](auto& j) { j["n_positions"] = 20000; },
            [values](std::map<std::string, Tensor>& t) {
                Tensor w({20000, 32});
                for (const auto& [i, x] : values) w.data[i] = x;
                t["wpe.weight"] = w;
            });
    };
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const int threads_before = thread_count();
    for (const int threads : {1, 2, 3}) {
        set_thread_count(threads);
        INFO(threads << " threads");
        using Catch::Contains;
        CHECK_THAT(error_with({{400000, nan}, {639999, -inf}}),
                   Contains("tensor 'wpe.weight' holds a non-finite value (nan) at flat index 400000"));
        CHECK_THAT(error_with({{600000, inf}, {393217, nan}, {262143, -inf}}),
                   Contains("tensor 'wpe.weight' holds a non-finite value (-inf) at flat index 262143"));
        CHECK_THAT(error_with({{639999, inf}}),
                   Contains("tensor 'wpe.weight' holds a non-finite value (inf) at flat index 639999"));
    }
    set_thread_count(threads_before);
}

TEST_CASE("sharded weights: an index or shard at fault is named in one line", "[hf]") {
    test::TempFolder folder;
    test::write_sharded_copy("hf_gpt2", folder, "h.1");
    const std::string index_path = folder.file("model.safetensors.index.json");
    const auto index = nlohmann::json::parse(test::read_text(index_path));
    auto error_with = [&](const std::function<void(nlohmann::json&)>& edit) {
        nlohmann::json edited = index;
        edit(edited);
        test::write_text(index_path, edited.dump());
        auto loaded = open_model(folder.path());
        REQUIRE_FALSE(loaded);
        return loaded.error().message;
    };
    using Catch::Contains;
    CHECK_THAT(error_with([](nlohmann::json& j) { j["weight_map"]["ln_f.bias"] = "model-00003-of-00003.safetensors"; }),
               Contains("model-00003-of-00003.safetensors") && Contains("(a shard named by"));
    CHECK_THAT(error_with([](nlohmann::json& j) { j["weight_map"]["ln_f.bias"] = "model-00001-of-00002.safetensors"; }),
               Contains("model.safetensors.index.json: places tensor 'ln_f.bias' in model-00001-of-00002.safetensors, "
                        "which lacks it"));
    CHECK_THAT(error_with([](nlohmann::json& j) { j["weight_map"]["ln_f.bias"] = "../model.safetensors"; }),
               Contains("weight_map['ln_f.bias'] is '../model.safetensors', not a file name in the folder"));
    CHECK_THAT(error_with([](nlohmann::json& j) { j["weight_map"]["ln_f.bias"] = 7; }),
               Contains("weight_map['ln_f.bias'] is not a file name"));
    {  // a tensor the index leaves out is still read from the shard that holds it, as from_pretrained does
        nlohmann::json edited = index;
        edited["weight_map"].erase("h.1.mlp.c_fc.weight");
        test::write_text(index_path, edited.dump());
        CHECK(open_model(folder.path()));
    }
    test::write_text(index_path, "[1, 2");
    auto loaded = open_model(folder.path());
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().message, Catch::EndsWith("model.safetensors.index.json: not a JSON object"));

    // One name in both shards.
    test::write_text(index_path, index.dump());
    auto second = io::MappedSafetensors::open(folder.file("model-00002-of-00002.safetensors"));
    REQUIRE(second);
    io::SafetensorsFile copy;
    for (const auto& [name, entry] : second->entries()) copy.tensors[name] = **second->tensor(name);
    copy.tensors["h.0.ln_1.bias"] = copy.tensors.at("ln_f.bias");  // h.0.* are in the first shard
    REQUIRE(io::write_safetensors(folder.file("model-00002-of-00002.safetensors"), copy));
    loaded = open_model(folder.path());
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().message,
               Contains("model-00002-of-00002.safetensors: tensor 'h.0.ln_1.bias' is also in ") &&
                   Contains("model-00001-of-00002.safetensors"));
}

TEST_CASE("a folder without a single model.safetensors says what it has", "[hf]") {
    test::TempFolder folder;
    test::write_text(folder.file("config.json"), test::read_text(hf_fixture("hf_gpt2") + "/config.json"));
    auto error = [&] {
        auto loaded = open_model(folder.path());
        REQUIRE_FALSE(loaded);
        return loaded.error().message;
    };
    CHECK_THAT(error(), Catch::EndsWith("/model.safetensors: no such file"));
    test::write_text(folder.file("pytorch_model.bin"), "not read");
    CHECK_THAT(error(), Catch::Contains("has pytorch_model.bin but no model.safetensors"));
    test::write_text(folder.file("model.safetensors.index.json"), "{}");
    CHECK_THAT(error(),
               Catch::EndsWith("model.safetensors.index.json: no \"weight_map\" object naming each tensor's file"));
    test::write_text(folder.file("model.safetensors"), "short");
    CHECK_THAT(error(), Catch::Contains("model.safetensors: file is 5 bytes"));

    test::TempFolder empty;
    auto loaded = open_model(empty.path());
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().message,
               Catch::EndsWith(": a folder without config.json; open a model file or a Hugging Face folder"));
}
