// ModelConfig JSON: exact field names, round trips, validation messages, presets.
#include "config.h"
#include "weights.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <type_traits>

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

namespace {

// Each field a struct's fields() lists, under its dotted name, as text: to see which fields a config sets.
struct FieldTexts {
    std::map<std::string, std::string>& out;
    std::string prefix;
    template <class T, class... Rule>
    void operator()(const char* key, T& value, const Rule&...) {
        const std::string name = prefix + key;
        if constexpr (std::is_same_v<T, std::vector<int>>) {
            for (const int id : value) out[name] += std::to_string(id) + " ";
            out[name] += "]";
        } else if constexpr (std::is_class_v<T>)
            value.fields(FieldTexts{out, name + "."});
        else
            out[name] = std::to_string(static_cast<double>(value));
    }
};

std::map<std::string, std::string> field_texts(ModelConfig c) {
    std::map<std::string, std::string> out;
    c.fields(FieldTexts{out, ""});
    return out;
}

// Valid configs that between them set every field away from its default.
std::vector<ModelConfig> configs_setting_every_field() {
    ModelConfig bert;
    bert.family = Family::bert;
    bert.arch = Arch::encoder_only;
    bert.d_model = 48;
    bert.n_heads = 6;
    bert.n_encoder_layers = 3;
    bert.n_decoder_layers = 0;
    bert.d_ff = 100;
    bert.activation = Activation::gelu;
    bert.norm_first = true;
    bert.final_norm = false;
    bert.positional = Positional::learned;
    bert.sinusoid_layout = SinusoidLayout::halves;
    bert.max_len = 40;
    bert.scale_embedding = false;
    bert.tie_embeddings = true;
    bert.layer_norm_eps = 1e-12f;
    bert.src_vocab_size = 30;
    bert.pad_id = 4, bert.sos_id = 5, bert.eos_id = 6, bert.unk_id = 7;
    bert.type_vocab_size = 2;
    bert.embedding_norm = true;
    bert.output_head = OutputHead::transform;
    ModelConfig qwen3;
    qwen3.family = Family::qwen3;
    qwen3.arch = Arch::decoder_only;
    qwen3.n_encoder_layers = 0;
    qwen3.positional = Positional::rotary;
    qwen3.norm = NormKind::rms_norm;
    qwen3.gated_ffn = true;
    qwen3.qkv_bias = qwen3.out_bias = qwen3.ffn_bias = false;
    qwen3.qk_norm = true;
    qwen3.n_kv_heads = 2;
    qwen3.head_dim = 8;
    qwen3.rope = {500000.0f, RopeScaling::llama3, 8.0f, 2.0f, 16.0f, 4096};
    qwen3.tgt_vocab_size = 50;
    qwen3.never_generated = {7, 9};
    ModelConfig mistral = qwen3;
    mistral.family = Family::mistral;
    mistral.qk_norm = false;
    mistral.sliding_window = 5;
    mistral.rope = {1000.0f, RopeScaling::linear, 2.0f};
    mistral.local_layers = {0};
    mistral.no_rope_layers = {1};
    mistral.local_rope_theta = 10000.0f;
    ModelConfig moe = qwen3;  // OLMoE's: experts, and Q and K normalised across the heads
    moe.family = Family::olmoe;
    moe.n_experts = 4;
    moe.experts_per_token = 2;
    moe.expert_d_ff = 16;
    moe.dense_layers = {1};
    moe.normalize_routing = true;
    moe.qk_norm_across_heads = true;
    ModelConfig zoo;  // the 2026 zoo's constants, on an encoder-decoder of T5's (relative buckets are T5's alone)
    zoo.family = Family::t5;
    zoo.norm = NormKind::rms_norm;
    zoo.qkv_bias = zoo.out_bias = zoo.ffn_bias = false;
    zoo.positional = Positional::relative_buckets;
    zoo.relative_buckets = 16;
    zoo.relative_max_distance = 64;
    zoo.attention_scale = 1.0f;
    zoo.embedding_multiplier = 12.0f;
    zoo.residual_multiplier = 0.25f;
    zoo.logit_scale = 0.125f;
    zoo.src_vocab_size = zoo.tgt_vocab_size = 30;
    ModelConfig gemma = qwen3;  // Gemma 2's norms after the sublayers and its soft caps
    gemma.family = Family::gemma2;
    gemma.qk_norm = false;
    gemma.norm = NormKind::rms_norm_plus_one;
    gemma.norm_first = true;
    gemma.post_sublayer_norm = true;
    gemma.attention_softcap = 50.0f;
    gemma.logit_softcap = 30.0f;
    ModelConfig modern = bert;  // ModernBERT's LayerNorms without β, and its first layer's identity attention norm
    modern.family = Family::modernbert;
    modern.positional = Positional::rotary;
    modern.final_norm = modern.gated_ffn = true;
    modern.type_vocab_size = 0;
    modern.norm_bias = false;
    modern.first_attention_norm = false;
    modern.head_bias = false;
    modern.logits_bias = false;
    return {bert, qwen3, mistral, moe, zoo, gemma, modern};
}

}  // namespace

TEST_CASE("every field ModelConfig::fields() lists round-trips through config_to_json and back", "[config]") {
    const auto defaults = field_texts(ModelConfig{});
    std::set<std::string> set_somewhere;
    for (const ModelConfig& c : configs_setting_every_field()) {
        REQUIRE(validate_config(c));
        const std::string text = config_to_json(c);
        INFO(text);
        auto back = config_from_json(text);
        REQUIRE(back);
        CHECK(*back == c);
        for (const auto& [name, value] : field_texts(c))
            if (value != defaults.at(name)) set_somewhere.insert(name);
    }
    CHECK(defaults.size() == 63);  // 57 of the config's own and the rope's 6
    for (const auto& [name, value] : defaults) {
        INFO(name);
        CHECK(set_somewhere.count(name) == 1);
    }
}

TEST_CASE("an unknown key, in the config or its rope, is refused by name before any other error", "[config]") {
    auto j = nlohmann::json::parse(config_to_json(configs_setting_every_field()[1]));
    auto error_of = [](const nlohmann::json& bad) {
        auto r = config_from_json(bad.dump());
        REQUIRE_FALSE(r);
        return r.error().message;
    };
    auto unknown = j;
    unknown["n_layers"] = 2;
    unknown.erase("d_model");
    CHECK(error_of(unknown) == "config: unknown field \"n_layers\"");
    auto rope_unknown = j;
    rope_unknown["rope"]["beta"] = 1;
    rope_unknown["rope"].erase("theta");
    CHECK(error_of(rope_unknown) == "config: unknown field rope.\"beta\"");
    auto rope_missing = j;
    rope_missing["rope"].erase("theta");
    CHECK(error_of(rope_missing) == "config: rope: missing field 'theta'");
    auto rope_mistyped = j;
    rope_mistyped["rope"]["original_max_position"] = 1.5;
    CHECK(error_of(rope_mistyped) == "config: rope: field 'original_max_position' must be an integer");
    auto rope_not_object = j;
    rope_not_object["rope"] = 3;
    CHECK(error_of(rope_not_object) == "config: field 'rope' must be an object");
    auto missing = j;
    missing.erase("d_model");
    missing["n_heads"] = "four";
    CHECK(error_of(missing) == "config: missing field 'd_model'");  // the first listed of the two
    auto optional_absent = j;
    optional_absent.erase("never_generated");
    auto read = config_from_json(optional_absent.dump());
    REQUIRE(read);
    CHECK(read->never_generated.empty());
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
