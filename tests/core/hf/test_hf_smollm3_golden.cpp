// SmolLM3 (tests/golden/make_hf_llama_golden.py, following modeling_smollm3.py): the Llama template with NoPE
// layers, whose Q and K reach the scores unturned. Every stored step within 1e-4 of PyTorch's, and the config's
// ways of naming the NoPE layers.
#include "../test_support.h"
#include "explain/step_kind.h"
#include "forward/mechanisms/layer_variants.h"
#include "hf/hf_config.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace attnlab;
using test::hf_fixture;

namespace {

bool has_step(const std::vector<Step>& steps, const std::string& path) {
    return std::any_of(steps.begin(), steps.end(), [&](const Step& s) { return s.path == path; });
}

}  // namespace

TEST_CASE("a SmolLM3 folder with a NoPE layer matches PyTorch", "[hf][smollm3]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_smollm3"));
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::smollm3 && c.arch == Arch::decoder_only && c.positional == Positional::rotary));
    CHECK((c.n_decoder_layers == 4 && c.kv_heads() == 2 && c.tie_embeddings && !c.qkv_bias && !c.ffn_bias));
    CHECK(c.no_rope_layers == std::vector<int>{3});
    CHECK(c.rope.theta == 5000000.0f);
    const test::Expected expected = test::read_expected("hf_smollm3");
    const Stepper stepper = test::run(loaded.model, expected.inputs);
    test::check_matches(stepper, expected, {"rope.inv_freq"});
    const std::vector<float> got = rope_inverse_frequencies(c.rope, c.d_head());
    const Tensor& want = expected.tensors.at("rope.inv_freq");
    REQUIRE(static_cast<int64_t>(got.size()) == want.numel());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want.data[i]).epsilon(1e-6));

    const std::vector<Step> steps = build_forward_steps(c);
    CHECK(has_step(steps, "decoder.layers.2.self_attn.q_rot"));
    CHECK(!has_step(steps, "decoder.layers.3.self_attn.q_rot"));
    CHECK(!has_step(steps, "decoder.layers.3.self_attn.k_rot"));
    CHECK(!has_step(steps, "masks.decoder_self_local"));
    for (const Step& s : steps)
        if (s.path == "decoder.layers.3.self_attn.scores") CHECK(explanation_kind(s.record, c) == "attn.scores_nope");
}

TEST_CASE("SmolLM3's NoPE layers: the list of flags, the interval, and the refused sliding window", "[hf][smollm3]") {
    const std::string base = R"({"model_type": "smollm3", "hidden_size": 16, "num_attention_heads": 4,
        "num_hidden_layers": 8, "intermediate_size": 24, "max_position_embeddings": 64, "vocab_size": 50)";
    auto config = [&](const std::string& more) { return config_from_hf_json(base + more + "}"); };
    const auto by_interval = config("");  // SmolLM3Config: every 4th layer
    REQUIRE(by_interval);
    CHECK(by_interval->no_rope_layers == std::vector<int>{3, 7});
    CHECK((by_interval->tie_embeddings && by_interval->rope.theta == 2000000.0f));
    const auto every_third = config(R"(, "no_rope_layer_interval": 3)");
    REQUIRE(every_third);
    CHECK(every_third->no_rope_layers == std::vector<int>{2, 5});
    const auto listed = config(R"(, "no_rope_layers": [0, 1, 1, 1, 1, 1, 1, 0, 1])");
    REQUIRE(listed);
    CHECK(listed->no_rope_layers == std::vector<int>{0, 7});
    const auto short_list = config(R"(, "no_rope_layers": [1, 1, 0])");
    REQUIRE(!short_list);
    CHECK(short_list.error().message.find("no_rope_layers") != std::string::npos);
    const auto windowed = config(R"(, "use_sliding_window": true, "sliding_window": 4)");
    REQUIRE(!windowed);
    CHECK(windowed.error().message.find("use_sliding_window") != std::string::npos);
}
