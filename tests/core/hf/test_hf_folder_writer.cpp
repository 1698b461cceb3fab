// write_hf_folder: a model opened from a Hugging Face folder, changed, saved and reopened is the changed model bit
// for bit, under the source file's tensor names (less what save_pretrained does not write), with the source's
// config.json and tokenizer files byte for byte; a folder it must not replace is refused in one line.
#include "hf/hf_folder_writer.h"
#include "hf/open_model.h"
#include "hf_test_folders.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>

using namespace attnlab;
using test::hf_fixture;
using test::read_text;

namespace {

// Adds 1 to the last entry of every third parameter: a change training could make.
Model changed(const Model& model, float delta = 1.0f) {
    Model out = model;
    const auto specs = parameter_specs(model.config);
    for (size_t i = 0; i < specs.size(); i += 3) {
        const Tensor& t = out.weights.at(specs[i].name);
        const auto last = static_cast<int64_t>(t.data.size()) - 1;
        out.weights.set_value(specs[i].name, last, t.data[static_cast<size_t>(last)] + delta);
    }
    return out;
}

bool same_bits(const Tensor& a, const Tensor& b) {
    return a.shape == b.shape && std::memcmp(a.data.data(), b.data.data(), 4 * a.data.size()) == 0;
}

std::set<std::string> tensor_names(const std::string& file) {
    auto mapped = io::MappedSafetensors::open(file);
    REQUIRE(mapped);
    std::set<std::string> names;
    for (const auto& [name, entry] : mapped->entries()) names.insert(name);
    return names;
}

std::set<std::string> folder_names(const std::string& dir) {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.insert(e.path().filename().string());
    return names;
}

// Every parameter of `expected` is in `got`, bit for bit, and the configs agree.
void check_same_model(const Model& got, const Model& expected) {
    CHECK(got.config == expected.config);
    for (const ParamSpec& spec : parameter_specs(expected.config)) {
        INFO(spec.name);
        CHECK(same_bits(got.weights.at(spec.name), expected.weights.at(spec.name)));
    }
}

LoadedModel open_or_fail(const std::string& path) {
    auto loaded = open_model(path);
    if (!loaded) FAIL(loaded.error().message);
    return std::move(*loaded);
}

std::string error_of(const Status& st) {
    REQUIRE_FALSE(st);
    CHECK(st.error().message.find('\n') == std::string::npos);
    return st.error().message;
}

// A copy of a fixture folder, whose files the test may add to.
void copy_fixture(const std::string& fixture, const std::string& to) {
    std::filesystem::copy(hf_fixture(fixture), to, std::filesystem::copy_options::recursive);
}

}  // namespace

TEST_CASE("a changed Hugging Face model is saved under its file's names and reopens bit for bit", "[hf][hf_writer]") {
    // fixture -> the source's tensors save_pretrained does not write (buffers)
    const std::map<std::string, std::set<std::string>> not_saved = {
        {"hf_gpt2", {"h.0.attn.bias", "h.0.attn.masked_bias", "h.1.attn.bias", "h.1.attn.masked_bias"}},
        {"hf_bert", {"bert.embeddings.position_ids"}},
        {"hf_llama", {"model.layers.0.self_attn.rotary_emb.inv_freq", "model.layers.1.self_attn.rotary_emb.inv_freq"}},
        {"hf_qwen3", {}},
        {"hf_marian", {}},
        {"hf_marian_untied", {}},
        {"hf_granitemoe", {}},  // its packed experts back as (E, 2F, C) and (E, C, F)
        {"train20/gpt2", {"h.0.attn.bias", "h.0.attn.masked_bias", "h.1.attn.bias", "h.1.attn.masked_bias"}},
        {"train20/llama", {}},
    };
    for (const auto& [fixture, dropped] : not_saved) {
        INFO(fixture);
        const std::string source = hf_fixture(fixture);
        const Model model = changed(open_or_fail(source).model);
        test::TempFolder tmp;
        const std::string out = tmp.file("saved");
        const Status st = write_hf_folder(out, model, source);
        if (!st) FAIL(st.error().message);

        const LoadedModel reopened = open_or_fail(out);
        check_same_model(reopened.model, model);
        CHECK(read_text(out + "/config.json") == read_text(source + "/config.json"));

        std::set<std::string> expected_names = tensor_names(source + "/model.safetensors");
        for (const auto& name : dropped) CHECK(expected_names.erase(name) == 1);
        CHECK(tensor_names(out + "/model.safetensors") == expected_names);
        auto mapped = io::MappedSafetensors::open(out + "/model.safetensors");
        REQUIRE(mapped);
        CHECK(mapped->metadata() == std::map<std::string, std::string>{{"format", "pt"}});
        // Each tensor as the source stored it: F32, in the source's shape (Marian's final_logits_bias (1, V)).
        auto source_file = io::MappedSafetensors::open(source + "/model.safetensors");
        REQUIRE(source_file);
        for (const auto& [name, entry] : mapped->entries()) {
            INFO(name);
            CHECK(entry.dtype == io::Dtype::f32);
            CHECK(entry.shape == source_file->entries().at(name).shape);
        }
        // The change is in the file: the saved weights are not the source's.
        CHECK_FALSE(same_bits(reopened.model.weights.at(parameter_specs(model.config)[0].name),
                              open_or_fail(source).model.weights.at(parameter_specs(model.config)[0].name)));
        // When ATTNLAB_KEEP_HF_FOLDER names a folder, the saves of the families tests/golden/check_hf_folder_loads.py
        // checks are kept there (train20/gpt2 as train20_gpt2).
        const char* keep = std::getenv("ATTNLAB_KEEP_HF_FOLDER");
        if (keep && model.config.family != Family::bert && model.config.family != Family::marian) {
            std::string kept_name = fixture;
            std::replace(kept_name.begin(), kept_name.end(), '/', '_');
            const std::string kept = std::string(keep) + "/" + kept_name;
            std::filesystem::remove_all(kept);
            std::filesystem::create_directories(keep);
            std::filesystem::copy(out, kept);
        }
    }
}

TEST_CASE("the source's tokenizer files are copied byte for byte, and nothing else", "[hf][hf_writer]") {
    SECTION("Marian: source.spm, target.spm, vocab.json, tokenizer_config.json") {
        const std::string source = hf_fixture("hf_marian");
        test::TempFolder tmp;
        const std::string out = tmp.file("saved");
        REQUIRE(write_hf_folder(out, open_or_fail(source).model, source));
        CHECK(folder_names(out) == std::set<std::string>{"config.json", "model.safetensors", "source.spm", "target.spm",
                                                         "tokenizer_config.json", "vocab.json"});
        for (const char* name : {"source.spm", "target.spm", "tokenizer_config.json", "vocab.json"}) {
            INFO(name);
            CHECK(read_text(out + "/" + name) == read_text(source + "/" + name));
        }
        CHECK(open_or_fail(out).tokenizer.files_read == open_or_fail(source).tokenizer.files_read);
    }
    SECTION("GPT-2 with generation_config.json and special_tokens_map.json, and notes that are not the model's") {
        test::TempFolder tmp;
        const std::string source = tmp.file("source");
        copy_fixture("hf_gpt2", source);
        test::write_text(source + "/generation_config.json", "{\"bos_token_id\": 49}\n");
        test::write_text(source + "/special_tokens_map.json", "{\"eos_token\": \"<|endoftext|>\"}\n");
        test::write_text(source + "/notes.txt", "not a model file\n");
        const std::string out = tmp.file("saved");
        REQUIRE(write_hf_folder(out, open_or_fail(source).model, source));
        CHECK(folder_names(out) == std::set<std::string>{"config.json", "generation_config.json", "model.safetensors",
                                                         "special_tokens_map.json"});
        CHECK(read_text(out + "/generation_config.json") == read_text(source + "/generation_config.json"));
        CHECK(read_text(out + "/special_tokens_map.json") == read_text(source + "/special_tokens_map.json"));
    }
}

TEST_CASE("a sharded source is saved as one model.safetensors", "[hf][hf_writer]") {
    test::TempFolder tmp;
    test::write_sharded_copy("hf_llama", tmp, "model.layers.1");
    const Model model = changed(open_or_fail(tmp.path()).model);
    const std::string out = tmp.file("saved");
    REQUIRE(write_hf_folder(out, model, tmp.path()));
    CHECK(folder_names(out) == std::set<std::string>{"config.json", "model.safetensors"});
    check_same_model(open_or_fail(out).model, model);
}

TEST_CASE("saving again replaces the earlier save whole, and leaves nothing beside it", "[hf][hf_writer]") {
    const std::string source = hf_fixture("hf_gpt2");
    const Model first = changed(open_or_fail(source).model, 1.0f);
    const Model second = changed(open_or_fail(source).model, 2.0f);
    test::TempFolder tmp;
    const std::string out = tmp.file("saved");
    std::filesystem::create_directory(out);  // an empty folder may be saved into
    REQUIRE(write_hf_folder(out, first, source));
    test::write_text(out + "/model-00001-of-00002.safetensors", "an old shard");
    REQUIRE(write_hf_folder(out + "/", second, source));
    check_same_model(open_or_fail(out).model, second);
    CHECK(folder_names(out) == std::set<std::string>{"config.json", "model.safetensors"});
    CHECK(folder_names(tmp.path()) == std::set<std::string>{"saved"});
}

TEST_CASE("write_hf_folder refuses in one line what it must not write", "[hf][hf_writer]") {
    using Catch::Contains;
    test::TempFolder tmp;
    const std::string source = tmp.file("source");
    copy_fixture("hf_gpt2", source);
    const Model model = changed(open_or_fail(source).model);
    const std::string source_bytes = read_text(source + "/model.safetensors");

    CHECK_THAT(error_of(write_hf_folder(source, model, source)),
               Contains("is the folder the model was opened from; save to another folder"));
    CHECK_THAT(error_of(write_hf_folder(source + "/", model, source)),
               Contains("is the folder the model was opened from"));
    CHECK(read_text(source + "/model.safetensors") == source_bytes);

    test::write_text(tmp.file("a_file"), "x");
    CHECK_THAT(error_of(write_hf_folder(tmp.file("a_file"), model, source)),
               Contains("a_file: is a file, not a folder"));
    CHECK(read_text(tmp.file("a_file")) == "x");
    CHECK_THAT(error_of(write_hf_folder(tmp.file("a_file") + "/saved", model, source)),
               Contains("a_file: no such folder"));
    CHECK_THAT(error_of(write_hf_folder(tmp.file("missing/saved"), model, source)),
               Contains("missing: no such folder"));

    // A folder of other things is never replaced: not a parent of the source, not a folder with notes.
    CHECK_THAT(error_of(write_hf_folder(tmp.path(), model, source)),
               Contains("holds 'a_file', not a model folder's file; save to a new or empty folder"));
    std::filesystem::create_directories(tmp.file("notes/sub"));
    CHECK_THAT(error_of(write_hf_folder(tmp.file("notes"), model, source)), Contains("holds 'sub'"));
    CHECK(std::filesystem::is_directory(tmp.file("notes/sub")));

    CHECK_THAT(error_of(write_hf_folder(tmp.file("saved"), model, tmp.file("missing"))),
               Contains("missing: not a Hugging Face folder (no config.json)"));
    CHECK_THAT(error_of(write_hf_folder(tmp.file("saved"), model, hf_fixture("hf_llama"))),
               Contains("a llama folder, the model is gpt2; save from the folder it was opened from"));
    // Same family, other shapes: a folder the model was not opened from.
    Model wider = model;
    wider.weights.set("wte.weight", Tensor(Shape{51, 32}));
    CHECK_THAT(error_of(write_hf_folder(tmp.file("saved"), wider, source)),
               Contains("tensor 'wte.weight' has shape (50, 32), the model's parameter (51, 32)"));
    CHECK_FALSE(std::filesystem::exists(tmp.file("saved")));
    CHECK(folder_names(tmp.path()) == std::set<std::string>{"a_file", "notes", "source"});
}
