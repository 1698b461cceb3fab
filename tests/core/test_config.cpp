// ModelConfig JSON: exact field names, round trips, validation messages, presets.
#include "config.h"
#include "weights.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace attnlab;

TEST_CASE("config JSON round-trips and uses the documented field names", "[config]") {
    ModelConfig c;
    c.arch = Arch::decoder_only;
    c.n_encoder_layers = 0;
    c.n_decoder_layers = 3;
    c.activation = Activation::gelu_tanh;
    c.norm_first = true;
    c.positional = Positional::learned;
    c.tie_embeddings = true;
    c.layer_norm_eps = 1e-6f;
    c.src_vocab_size = 50;
    c.tgt_vocab_size = 50;
    const std::string text = config_to_json(c);
    const auto j = nlohmann::json::parse(text);
    for (const char* key :
         {"arch",           "d_model",         "n_heads",        "n_encoder_layers", "n_decoder_layers",
          "d_ff",           "activation",      "norm_first",     "final_norm",       "positional",
          "max_len",        "scale_embedding", "tie_embeddings", "layer_norm_eps",   "src_vocab_size",
          "tgt_vocab_size", "pad_id",          "sos_id",         "eos_id",           "unk_id"})
        CHECK(j.contains(key));
    CHECK(j.size() == 20);
    CHECK(j["arch"] == "decoder_only");
    CHECK(j["activation"] == "gelu_tanh");
    auto back = config_from_json(text);
    REQUIRE(back);
    CHECK(*back == c);
}

TEST_CASE("Marian's switches round-trip and are written only when set", "[config]") {
    ModelConfig c;
    c.family = Family::marian;
    c.final_norm = false;
    c.activation = Activation::silu;
    c.sinusoid_layout = SinusoidLayout::halves;
    c.src_vocab_size = c.tgt_vocab_size = 40;
    c.pad_id = c.sos_id = 39;
    c.unk_id = -1;
    c.never_generated = {39};
    const auto j = nlohmann::json::parse(config_to_json(c));
    CHECK(j["family"] == "marian");
    CHECK(j["sinusoid_layout"] == "halves");
    CHECK(j["never_generated"] == nlohmann::json::array({39}));
    auto back = config_from_json(j.dump());
    REQUIRE(back);
    CHECK(*back == c);
    CHECK(back->target_pad_id() == -1);  // the decoder starts from <pad>, so no target key is padding
    CHECK_FALSE(nlohmann::json::parse(config_to_json(ModelConfig{})).contains("sinusoid_layout"));
    CHECK_FALSE(nlohmann::json::parse(config_to_json(ModelConfig{})).contains("never_generated"));
    auto outside = j;
    outside["never_generated"] = nlohmann::json::array({40});
    auto refused = config_from_json(outside.dump());
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message == "config: never_generated id 40 is outside the vocabulary");
    outside["never_generated"] = "39";
    refused = config_from_json(outside.dump());
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message == "config: field 'never_generated' must be a list of token ids");
    auto with_final_norm = j;
    with_final_norm["final_norm"] = true;
    auto r = config_from_json(with_final_norm.dump());
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "config: family marian has no final LayerNorm (final_norm must be false)");
}

TEST_CASE("bad configs give one-line errors that name the field", "[config]") {
    ModelConfig c;
    c.src_vocab_size = c.tgt_vocab_size = 30;
    auto j = nlohmann::json::parse(config_to_json(c));
    auto error_of = [](const nlohmann::json& bad) {
        auto r = config_from_json(bad.dump());
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find('\n') == std::string::npos);
        return r.error().message;
    };
    auto without = j;
    without.erase("d_ff");
    CHECK_THAT(error_of(without), Catch::Contains("d_ff"));
    auto unknown = j;
    unknown["dmodel"] = 3;
    CHECK_THAT(error_of(unknown), Catch::Contains("dmodel"));
    auto wrong_type = j;
    wrong_type["norm_first"] = "yes";
    CHECK_THAT(error_of(wrong_type), Catch::Contains("norm_first"));
    auto bad_enum = j;
    bad_enum["activation"] = "swish";
    CHECK_THAT(error_of(bad_enum), Catch::Contains("relu | gelu | gelu_tanh"));
    auto heads = j;
    heads["n_heads"] = 5;
    CHECK_THAT(error_of(heads), Catch::Contains("n_heads"));
    auto ids = j;
    ids["eos_id"] = 30;
    CHECK_THAT(error_of(ids), Catch::Contains("eos_id"));
    // Found by fuzzing: a key with a newline in it must not make the message two lines.
    CHECK_THAT(error_of(nlohmann::json::parse("{\"a\\nb\": 1}")), Catch::Contains("\"a\\nb\""));
    CHECK_FALSE(config_from_json("[1, 2]"));
    CHECK_FALSE(config_from_json("{\"arch\": "));
}

TEST_CASE("presets are the documented sizes", "[config]") {
    auto tiny = preset_config("tiny", 99, 99);
    REQUIRE(tiny);
    CHECK((tiny->d_model == 64 && tiny->n_heads == 4 && tiny->n_encoder_layers == 2 && tiny->n_decoder_layers == 2 &&
           tiny->d_ff == 256));
    auto base = preset_config("base", 37000, 37000);
    REQUIRE(base);
    CHECK((base->d_model == 512 && base->n_heads == 8 && base->n_encoder_layers == 6 && base->n_decoder_layers == 6 &&
           base->d_ff == 2048 && base->d_head() == 64));
    // The paper's base model without embeddings: 6·(4C²+2CF) encoder + 6·(8C²+2CF) decoder weights,
    // plus biases and norms.
    const int64_t C = 512, F = 2048;
    const int64_t enc_layer = 4 * C * C + 4 * C + 2 * C * F + F + C + 4 * C;
    const int64_t dec_layer = 8 * C * C + 8 * C + 2 * C * F + F + C + 6 * C;
    const int64_t embeddings = 37000 * C * 3;
    CHECK(parameter_count(*base) == 6 * enc_layer + 6 * dec_layer + 4 * C + embeddings);
    CHECK_FALSE(preset_config("huge", 10, 10));
}
