// Model files: write -> read is exact, vocabularies travel along, and a file that does not
// fit its config is refused with the tensor's name.
#include "io/model_file.h"

#include <catch2/catch.hpp>

#include <filesystem>

#include <unistd.h>  // getpid

using namespace attnlab;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir() {
    const fs::path dir = fs::temp_directory_path() / ("attnlab_model_file_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
}

io::SafetensorsFile valid_file() {
    auto m = make_random_model("tiny", 3, std::nullopt, std::nullopt, TokenizerKind::word);
    REQUIRE(m);
    return io::model_to_safetensors(*m);
}

}  // namespace

TEST_CASE("a model written and read back is identical", "[model_file]") {
    const auto path = (temp_dir() / "m.safetensors").string();
    auto m = make_random_model("tiny", 11, std::nullopt, std::nullopt, TokenizerKind::word);
    REQUIRE(m);
    REQUIRE(io::write_model(path, *m));
    auto back = io::read_model(path);
    REQUIRE(back);
    CHECK(back->config == m->config);
    CHECK(back->tokenizer == TokenizerKind::character);
    REQUIRE(back->src_vocab);
    CHECK(back->src_vocab->tokens() == m->src_vocab->tokens());
    REQUIRE(back->weights.all().size() == m->weights.all().size());
    for (const auto& [name, t] : m->weights.all()) {
        INFO(name);
        CHECK(back->weights.at(name).shape == t->shape);
        CHECK(std::memcmp(back->weights.at(name).data.data(), t->data.data(), t->data.size() * 4) == 0);
    }
    fs::remove_all(temp_dir());
}

TEST_CASE("model files that do not fit their config are refused by name", "[model_file]") {
    auto error_of = [](io::SafetensorsFile f) {
        auto r = io::model_from_safetensors(std::move(f), "bad.safetensors");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.starts_with("bad.safetensors: "));
        return r.error().message;
    };
    auto missing = valid_file();
    missing.tensors.erase("decoder.layers.1.norm3.bias");
    CHECK_THAT(error_of(missing), Catch::Contains("decoder.layers.1.norm3.bias"));

    auto wrong_shape = valid_file();
    wrong_shape.tensors["encoder.layers.0.self_attn.in_proj_weight"] = Tensor({64, 64});
    CHECK_THAT(error_of(wrong_shape), Catch::Contains("in_proj_weight") && Catch::Contains("(192, 64)"));

    auto extra = valid_file();
    extra.tensors["encoder.layers.7.linear1.weight"] = Tensor({2, 2});
    CHECK_THAT(error_of(extra), Catch::Contains("encoder.layers.7.linear1.weight"));

    auto no_config = valid_file();
    no_config.metadata.erase("config");
    CHECK_THAT(error_of(no_config), Catch::Contains("config"));

    auto bad_config = valid_file();
    bad_config.metadata["config"] = "{\"arch\": \"rnn\"}";
    CHECK_THAT(error_of(bad_config), Catch::Contains("config"));

    auto bad_vocab = valid_file();
    bad_vocab.metadata["src_vocab"] = "[\"<pad>\", \"a\"]";
    CHECK_THAT(error_of(bad_vocab), Catch::Contains("src_vocab"));

    auto bad_specials = valid_file();
    auto tokens = default_char_vocab().tokens();
    std::swap(tokens[1], tokens[2]);
    bad_specials.metadata["tgt_vocab"] = Vocab::from_tokens(tokens)->to_json();
    CHECK_THAT(error_of(bad_specials), Catch::Contains("<sos>"));

    auto not_finite = valid_file();
    not_finite.tensors["decoder.norm.weight"].data[3] = std::nanf("");
    CHECK_THAT(error_of(not_finite), Catch::Contains("decoder.norm.weight") && Catch::Contains("index 3"));

    auto bad_tokenizer = valid_file();
    bad_tokenizer.metadata["tokenizer"] = "bpe";
    CHECK_THAT(error_of(bad_tokenizer), Catch::Contains("tokenizer"));
}

TEST_CASE("a trained model's task, seed and steps travel in the file; malformed records are refused", "[model_file]") {
    const auto path = (temp_dir() / "trained.safetensors").string();
    auto m = make_random_model("tiny", 5, std::nullopt, std::nullopt, TokenizerKind::word);
    REQUIRE(m);
    CHECK_FALSE(m->training);
    m->training = TrainingRecord{"en-ko", 7, 1500};
    REQUIRE(io::write_model(path, *m));
    auto back = io::read_model(path);
    REQUIRE(back);
    REQUIRE(back->training);
    CHECK(*back->training == *m->training);

    for (const char* bad :
         {"{}", "[1]", "{\"task\": 3, \"seed\": 1, \"steps\": 2}", "{\"task\": \"copy\", \"seed\": -1, \"steps\": 2}",
          "{\"task\": \"copy\", \"seed\": 1, \"steps\": 2, \"extra\": 0}", "not json"}) {
        INFO(bad);
        io::SafetensorsFile f = io::model_to_safetensors(*m);
        f.metadata["training"] = bad;
        auto r = io::model_from_safetensors(std::move(f), "x.safetensors");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("training") != std::string::npos);
    }
}
