// ModernBERT from a Hugging Face folder (tests/golden/make_hf_modernbert_golden.py, which follows
// modeling_modernbert.py) must give PyTorch's outputs within 1e-4 of each step's scale at every step the reference
// stores: the embeddings' LayerNorm without β, layer 0's identity attention norm, Q, K, V from the packed Wqkv, their
// rotation by each layer type's RoPE base, every attention's weights over its global or symmetric local mask, the
// GeGLU FFN packed in Wi, the final norm, the MLM head and the logits; its tokenizer.json puts [CLS] and [SEP]
// around the text; and the folder saves back as it was read.
#include "../test_support.h"
#include "forward/mechanisms/layer_variants.h"
#include "hf/hf_config.h"
#include "hf/hf_folder_writer.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "io/safetensors.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace attnlab;
using test::hf_fixture;

namespace {

// Every stored step within 1e-4 of the largest entry of PyTorch's tensor (at least 1).
void check_within_relative(const Stepper& stepper, const test::Expected& expected) {
    for (const auto& [path, want] : expected.tensors) {
        INFO("step " << path);
        const Tensor* got = stepper.output(path);
        REQUIRE(got);
        REQUIRE(got->shape == want.shape);
        float scale = 1.0f;
        for (const float x : want.data) scale = std::max(scale, std::abs(x));
        CHECK(test::max_abs_diff(*got, want) / scale < 1e-4f);
    }
}

// The largest weight a query of `layer` gives a key more than `half` positions away, over the heads.
float weight_outside(const Stepper& s, int layer, int half) {
    const Tensor& w = *s.output("encoder.layers." + std::to_string(layer) + ".self_attn.weights");  // (H, S, S)
    const int64_t S = w.dim(1);
    float largest = 0.0f;
    for (int64_t h = 0; h < w.dim(0); ++h)
        for (int64_t i = 0; i < S; ++i)
            for (int64_t j = 0; j < S; ++j)
                if (std::abs(i - j) > half) largest = std::max(largest, w.data[static_cast<size_t>((h * S + i) * S + j)]);
    return largest;
}

}  // namespace

TEST_CASE("ModernBERT: local and global layers, LayerNorms without β, packed Wqkv and Wi match PyTorch",
          "[hf][modernbert]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_modernbert"));
    const test::Expected expected = test::read_expected("hf_modernbert");
    const Stepper stepper = test::run(loaded.model, expected.inputs);
    check_within_relative(stepper, expected);
    CHECK(loaded.unused_tensors.empty());
    CHECK(expected.tensors.count("logits") == 1);
    for (int layer = 0; layer < 4; ++layer)
        CHECK(expected.tensors.count("encoder.layers." + std::to_string(layer) + ".self_attn.weights") == 1);

    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::modernbert && c.arch == Arch::encoder_only && c.positional == Positional::rotary));
    CHECK((!c.norm_bias && !c.first_attention_norm && c.norm_first && c.final_norm && c.embedding_norm));
    CHECK((c.gated_ffn && c.activation == Activation::gelu && c.ffn_bias && !c.qkv_bias && !c.out_bias));
    CHECK((!c.head_bias && c.logits_bias && c.tie_embeddings && c.output_head == OutputHead::transform));
    CHECK((c.sliding_window == 4 && c.local_layers == std::vector<int>{1, 2}));
    CHECK((c.rope.theta == 160000.0f && c.local_rope_theta == 10000.0f && c.pad_id == 457));
    // No β anywhere, and no norm weights for layer 0's attention.
    for (const ParamSpec& spec : parameter_specs(c)) {
        INFO(spec.name);
        CHECK(spec.kind != ParamKind::norm_bias);
        CHECK(spec.name.find("layers.0.attn_norm") == std::string::npos);
    }
    // Layer 0's attention reads the embeddings' LayerNorm as it is.
    CHECK(test::max_abs_diff(*stepper.output("encoder.layers.0.norm1"), *stepper.output("src.embed_norm")) == 0.0f);
    // and its residual add says so; every other add reads its sublayer's LayerNorm.
    const auto formula_of = [&](const char* path) { return stepper.step(*stepper.find(std::string(path))).formula; };
    CHECK(formula_of("encoder.layers.0.residual1") == "x + Sublayer(x)");
    CHECK(formula_of("encoder.layers.0.residual2") == "x + Sublayer(LN(x))");
    CHECK(formula_of("encoder.layers.1.residual1") == "x + Sublayer(LN(x))");
    // The local layers see 2 keys on either side, the global ones all of them; the [PAD] key gets nothing.
    CHECK(weight_outside(stepper, 1, 2) == 0.0f);
    CHECK(weight_outside(stepper, 2, 2) == 0.0f);
    CHECK(weight_outside(stepper, 0, 2) > 0.0f);
    CHECK(weight_outside(stepper, 3, 2) > 0.0f);
    CHECK(stepper.output("masks.encoder_self_local"));
    CHECK(mask_of_site(c, {AttentionUse::encoder_self, 1}) == local_mask_of(AttentionUse::encoder_self));
    CHECK(mask_of_site(c, {AttentionUse::encoder_self, 3}) == StepId::mask_of(AttentionUse::encoder_self));
    const Tensor& w0 = *stepper.output("encoder.layers.0.self_attn.weights");  // (H, S, S)
    const int64_t S = w0.dim(1);
    for (int64_t i = 0; i < S; ++i) CHECK(w0.data[static_cast<size_t>(i * S + S - 1)] == 0.0f);
}

TEST_CASE("ModernBERT's tokenizer.json puts [CLS] before the text and [SEP] after it", "[hf][modernbert]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_modernbert"));
    REQUIRE(loaded.model.subword_tokenizer);
    // What Hugging Face's tokenizers give (make_hf_modernbert_golden.py's ids, without the [PAD]).
    const std::vector<int> want = {455, 65, 389, 355, 258, 276, 431, 315, 101, 101, 100, 46, 456};
    auto t = encode_source_text(loaded.model, "Attention is all you need.");
    REQUIRE(t);
    CHECK(t->ids == want);
    CHECK((t->pieces.front() == "[CLS]" && t->pieces.back() == "[SEP]"));
}

TEST_CASE("ModernBERT's config.json: layer_types and rope_parameters, and what is refused", "[hf][modernbert]") {
    const std::string base =
        R"({"model_type": "modernbert", "hidden_size": 32, "num_attention_heads": 4, "num_hidden_layers": 4,
            "intermediate_size": 24, "vocab_size": 64, "pad_token_id": 3, "local_attention": 4)";
    auto c = config_from_hf_json(base + R"(, "layer_types": ["full_attention", "full_attention",
        "sliding_attention", "full_attention"], "rope_parameters": {"full_attention": {"rope_type": "default",
        "rope_theta": 5000.0}, "sliding_attention": {"rope_type": "default", "rope_theta": 300.0}}})");
    REQUIRE(c);
    CHECK(c->local_layers == std::vector<int>{2});
    CHECK((c->rope.theta == 5000.0f && c->local_rope_theta == 300.0f));
    auto defaults = config_from_hf_json(base + "}");
    REQUIRE(defaults);
    CHECK(defaults->local_layers == std::vector<int>{1, 2});  // global every 3rd from the first
    CHECK((defaults->rope.theta == 160000.0f && defaults->local_rope_theta == 10000.0f));
    auto scaled = config_from_hf_json(base + R"(, "rope_parameters": {"full_attention": {"rope_type": "linear",
        "factor": 2.0}}})");
    REQUIRE_FALSE(scaled);
    CHECK(scaled.error().message.find("rope_type") != std::string::npos);
    auto head = config_from_hf_json(base + R"(, "classifier_activation": "silu"})");
    REQUIRE_FALSE(head);
    CHECK(head.error().message.find("classifier_activation") != std::string::npos);
}

TEST_CASE("a ModernBERT folder saves back with the names and tensors it was read from", "[hf][modernbert]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_modernbert"));
    const test::TempFolder folder;
    const std::string out = folder.file("saved");
    REQUIRE(write_hf_folder(out, loaded.model, hf_fixture("hf_modernbert")));
    const LoadedModel again = test::open(out);
    CHECK(again.unused_tensors.empty());
    for (const ParamSpec& spec : parameter_specs(loaded.model.config)) {
        INFO(spec.name);
        CHECK(test::max_abs_diff(again.model.weights.at(spec.name), loaded.model.weights.at(spec.name)) == 0.0f);
    }
    auto source = io::read_safetensors(hf_fixture("hf_modernbert") + "/model.safetensors");
    auto saved = io::read_safetensors(out + "/model.safetensors");
    REQUIRE((source && saved));
    std::vector<std::string> source_names, saved_names;
    for (const auto& [name, t] : source->tensors) source_names.push_back(name);
    for (const auto& [name, t] : saved->tensors) saved_names.push_back(name);
    CHECK(saved_names == source_names);
}
