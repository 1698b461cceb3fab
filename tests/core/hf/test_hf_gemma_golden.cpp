// Gemma 2 and Gemma 3 (text) from Hugging Face folders (tests/golden/make_hf_gemma_golden.py, which follows
// modeling_gemma2.py and modeling_gemma3.py) must give PyTorch's outputs within 1e-4 at every step the reference
// stores: the (1 + γ) norms before and after each sublayer, Q, K, V (and Gemma 3's head norms), the scaled and
// soft-capped scores, each attention's weights over its local or global mask, the FFN, the logits and the capped
// logits.
#include "../test_support.h"
#include "forward/mechanisms/layer_variants.h"
#include "forward/mechanisms/soft_cap.h"
#include "hf/hf_config.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using test::hf_fixture;

namespace {

struct Run {
    LoadedModel loaded;
    Stepper stepper;
};

Run check_fixture(const std::string& fixture) {
    LoadedModel loaded = test::open(hf_fixture(fixture));
    const test::Expected expected = test::read_expected(fixture);
    Stepper stepper = test::run(loaded.model, expected.inputs);
    test::check_matches(stepper, expected);
    CHECK(loaded.unused_tensors.empty());
    return {std::move(loaded), std::move(stepper)};
}

// The largest weight a query gives a key more than `window` − 1 positions back, over the heads of one layer.
float weight_outside_window(const Stepper& s, int layer, int window) {
    const Tensor& w = *s.output("decoder.layers." + std::to_string(layer) + ".self_attn.weights");  // (H, T, T)
    const int64_t T = w.dim(1);
    float largest = 0.0f;
    for (int64_t h = 0; h < w.dim(0); ++h)
        for (int64_t i = 0; i < T; ++i)
            for (int64_t j = 0; j + window <= i; ++j)
                largest = std::max(largest, w.data[static_cast<size_t>((h * T + i) * T + j)]);
    return largest;
}

Result<ModelConfig> gemma2_config_with(const std::string& extra) {
    return config_from_hf_json(
        R"({"model_type": "gemma2", "hidden_size": 32, "num_attention_heads": 4, "num_key_value_heads": 2,
            "head_dim": 16, "num_hidden_layers": 4, "intermediate_size": 48, "vocab_size": 64,
            "max_position_embeddings": 128, "sliding_window": 3)" +
        extra + "}");
}

}  // namespace

TEST_CASE("Gemma 2: local and global layers, soft-capped scores and logits, (1 + γ) norms match PyTorch",
          "[hf][gemma]") {
    const Run run = check_fixture("hf_gemma2");
    const ModelConfig& c = run.loaded.model.config;
    CHECK((c.family == Family::gemma2 && c.norm == NormKind::rms_norm_plus_one && c.post_sublayer_norm));
    CHECK((c.attention_softcap == 5.0f && c.logit_softcap == 3.0f && c.tie_embeddings && c.scale_embedding));
    CHECK(c.attention_scale == Approx(1.0 / std::sqrt(24.0)));
    CHECK((c.d_head() == 16 && c.attention_width() == 64 && c.kv_heads() == 2 && c.activation == Activation::gelu_tanh));
    CHECK(c.local_layers == std::vector<int>{0, 2});
    // The local layers see 3 keys back, the global ones all of them.
    CHECK(weight_outside_window(run.stepper, 0, 3) == 0.0f);
    CHECK(weight_outside_window(run.stepper, 1, 3) > 0.0f);
    // Soft-capping bites: some scaled score lies beyond the cap, and every capped one inside it.
    const Tensor& scaled = *run.stepper.output("decoder.layers.0.self_attn.scaled");
    const Tensor& capped = *run.stepper.output("decoder.layers.0.self_attn.capped");
    const auto largest = [](const Tensor& t) {
        float m = 0.0f;
        for (const float x : t.data) m = std::max(m, std::abs(x));
        return m;
    };
    CHECK(largest(scaled) > 5.0f);
    CHECK(largest(capped) < 5.0f);
    CHECK(largest(*run.stepper.output("logits")) > 3.0f);
    CHECK(largest(*run.stepper.output("capped_logits")) < 3.0f);
    // The probabilities are the softmax of the capped logits.
    const Tensor& capped_logits = *run.stepper.output(final_logits_of(c));
    const Tensor& probs = *run.stepper.output("probs");
    const int64_t V = probs.dim(1);
    double sum = 0.0;
    for (int64_t v = 0; v < V; ++v) sum += std::exp(static_cast<double>(capped_logits.data[static_cast<size_t>(v)]));
    CHECK(probs.data[0] == Approx(std::exp(capped_logits.data[0]) / sum).epsilon(1e-5));
}

TEST_CASE("Gemma 3: per-head (1 + γ) norms of Q and K, a local RoPE base and every 3rd layer global match PyTorch",
          "[hf][gemma]") {
    const Run run = check_fixture("hf_gemma3");
    const ModelConfig& c = run.loaded.model.config;
    CHECK((c.family == Family::gemma3 && c.qk_norm && c.attention_softcap == 0.0f && c.logit_softcap == 0.0f));
    CHECK(c.local_layers == std::vector<int>{0, 1, 3});
    CHECK((c.local_rope_theta == 10000.0f && c.rope.theta == 1000000.0f && c.rope.scaling == RopeScaling::linear));
    REQUIRE(rope_of_layer(c, 0));
    REQUIRE(rope_of_layer(c, 2));
    CHECK((rope_of_layer(c, 0)->theta == 10000.0f && rope_of_layer(c, 0)->scaling == RopeScaling::none));
    CHECK(rope_of_layer(c, 2)->theta == 1000000.0f);
    CHECK(weight_outside_window(run.stepper, 3, 3) == 0.0f);
    CHECK(weight_outside_window(run.stepper, 2, 3) > 0.0f);
    CHECK(!run.stepper.find(StepId::head(StepKind::capped_logits, c)));
    CHECK(run.loaded.model.weights.contains("layers.0.self_attn.q_norm.weight"));
}

TEST_CASE("Gemma configs: layer_types, the multimodal gemma3 and bad fields are one-line errors", "[hf][gemma]") {
    auto typed = gemma2_config_with(R"(, "layer_types": ["full_attention", "sliding_attention",
        "sliding_attention", "full_attention"])");
    REQUIRE(typed);
    CHECK(typed->local_layers == std::vector<int>{1, 2});
    auto no_window = gemma2_config_with(R"(, "sliding_window": null)");
    REQUIRE(no_window);
    CHECK(no_window->local_layers.empty());
    CHECK(no_window->attention_softcap == 50.0f);  // Gemma2Config's defaults
    CHECK(no_window->logit_softcap == 30.0f);

    const auto error_of = [](const Result<ModelConfig>& r) { return r ? std::string() : r.error().message; };
    CHECK(error_of(gemma2_config_with(R"(, "layer_types": ["full_attention"])")).find("one type per layer") !=
          std::string::npos);
    CHECK(error_of(gemma2_config_with(R"(, "layer_types": ["x", "x", "x", "x"])")).find("sliding_attention") !=
          std::string::npos);
    CHECK(error_of(gemma2_config_with(R"(, "attn_logit_softcapping": -1)")).find("attn_logit_softcapping") !=
          std::string::npos);
    CHECK(error_of(config_from_hf_json(R"({"model_type": "gemma3", "text_config": {}})")).find("gemma3_text") !=
          std::string::npos);
    for (const auto& r : {gemma2_config_with(R"(, "layer_types": 7)"), gemma2_config_with(R"(, "head_dim": 0)")}) {
        REQUIRE(!r);
        CHECK(r.error().message.find('\n') == std::string::npos);
    }
    // The switches are Gemma's alone.
    ModelConfig llama = *typed;
    llama.family = Family::llama;
    CHECK(!validate_config(llama));
}
