// The Llama template's families (llama, mistral, qwen2, qwen3) from Hugging Face folders
// (tests/golden/make_hf_llama_golden.py, which follows each family's modeling file) must give
// PyTorch's outputs within 1e-4 at every step the reference stores: Q, K, V before and after
// qwen3's head norms and RoPE, each attention's weights, every FFN part, the stream and the logits.
#include "../test_support.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace attnlab;
using test::hf_fixture;

namespace {

// Opens the fixture, checks every stored step and RoPE's frequencies, and returns the model.
LoadedModel check_fixture(const std::string& fixture) {
    LoadedModel loaded = test::open(hf_fixture(fixture));
    const test::Expected expected = test::read_expected(fixture);
    const Stepper stepper = test::run(loaded.model, expected.inputs);
    test::check_matches(stepper, expected, {"rope.inv_freq"});
    const Tensor& want = expected.tensors.at("rope.inv_freq");  // (D/2,)
    const std::vector<float> got = rope_inverse_frequencies(loaded.model.config.rope, loaded.model.config.d_head());
    REQUIRE(static_cast<int64_t>(got.size()) == want.numel());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want.data[i]).epsilon(1e-6));
    for (const auto& [name, tensor] : loaded.model.weights.all()) {
        INFO(name);
        CHECK(tensor->data.is_view());  // read in place from the mapped file
    }
    return loaded;
}

bool has_step(const LoadedModel& loaded, const std::string& path) {
    const auto steps = build_forward_steps(loaded.model.config);
    return std::any_of(steps.begin(), steps.end(), [&](const Step& s) { return s.path == path; });
}

}  // namespace

TEST_CASE("a Llama 2-style folder (GQA, untied, inv_freq buffers) matches PyTorch", "[hf][llama]") {
    const LoadedModel loaded = check_fixture("hf_llama");
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::llama && c.arch == Arch::decoder_only && c.norm == NormKind::rms_norm));
    CHECK((c.n_heads == 4 && c.kv_heads() == 2 && c.d_head() == 8 && !c.tie_embeddings && c.gated_ffn));
    CHECK((c.rope.theta == 10000.0f && c.rope.scaling == RopeScaling::none));
    CHECK((!c.qkv_bias && !c.out_bias && !c.ffn_bias && !c.qk_norm && c.sliding_window == 0));
    CHECK(loaded.unused_tensors == std::vector<std::string>{"model.layers.0.self_attn.rotary_emb.inv_freq",
                                                            "model.layers.1.self_attn.rotary_emb.inv_freq"});
    CHECK(loaded.model.weights.contains("lm_head.weight"));
}

TEST_CASE("Llama 3 frequency scaling, an odd number of pairs, one K/V head and every bias match PyTorch",
          "[hf][llama]") {
    const LoadedModel loaded = check_fixture("hf_llama3_scaled");
    const ModelConfig& c = loaded.model.config;
    CHECK((c.rope.scaling == RopeScaling::llama3 && c.rope.factor == 8.0f && c.rope.original_max_position == 1024));
    CHECK((c.d_head() == 6 && c.attention_width() == 24 && c.d_model == 32 && c.kv_heads() == 1));
    CHECK((c.qkv_bias && c.out_bias && c.ffn_bias && c.tie_embeddings));
    CHECK(!loaded.model.weights.contains("lm_head.weight"));
    // The scaling changes the slow pairs and keeps the fast one.
    RopeConfig unscaled = c.rope;
    unscaled.scaling = RopeScaling::none;
    const auto scaled = rope_inverse_frequencies(c.rope, c.d_head());
    const auto plain = rope_inverse_frequencies(unscaled, c.d_head());
    CHECK(scaled[0] == plain[0]);
    CHECK(scaled[2] == Approx(plain[2] / 8.0f).epsilon(1e-6));
    CHECK(scaled[1] > plain[1] / 8.0f);
    CHECK(scaled[1] < plain[1]);
}

TEST_CASE("linear RoPE scaling, written with the older key \"type\", matches PyTorch", "[hf][llama]") {
    const LoadedModel loaded = check_fixture("hf_llama_linear");
    CHECK((loaded.model.config.rope.scaling == RopeScaling::linear && loaded.model.config.rope.factor == 4.0f));
    CHECK(loaded.model.config.kv_heads() == loaded.model.config.n_heads);
}

TEST_CASE("Mistral's sliding window is in the look-ahead mask and matches PyTorch", "[hf][llama]") {
    const LoadedModel loaded = check_fixture("hf_mistral");
    REQUIRE(loaded.model.config.sliding_window == 3);
    const test::Expected expected = test::read_expected("hf_mistral");
    const Stepper s = test::run(loaded.model, expected.inputs);
    const Tensor& mask = *s.output("masks.look_ahead");  // (T, T)
    for (int64_t i = 0; i < mask.dim(0); ++i)
        for (int64_t j = 0; j < mask.dim(1); ++j) {
            INFO("query " << i << ", key " << j);
            CHECK(mask.data[static_cast<size_t>(i * mask.dim(1) + j)] == (j <= i && i - j < 3 ? 1.0f : 0.0f));
        }
}

TEST_CASE("Qwen2: biases on Q, K and V only, and its unused sliding_window ignored", "[hf][llama]") {
    const LoadedModel loaded = check_fixture("hf_qwen2");
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::qwen2 && c.qkv_bias && !c.out_bias && !c.ffn_bias && c.sliding_window == 0));
    CHECK(loaded.model.weights.contains("layers.0.self_attn.k_proj.bias"));
    CHECK(!has_step(loaded, "decoder.layers.0.self_attn.q_norm"));
}

TEST_CASE("Qwen3: each head of Q and K through its RMSNorm before RoPE, H·D ≠ C, matches PyTorch", "[hf][llama]") {
    const LoadedModel loaded = check_fixture("hf_qwen3");
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::qwen3 && c.qk_norm && c.d_head() == 16 && c.attention_width() == 64 && c.d_model == 16));
    CHECK(has_step(loaded, "decoder.layers.1.self_attn.k_norm"));
    CHECK(loaded.model.weights.contains("layers.1.self_attn.q_norm.weight"));
}
