// Mixtures of experts from Hugging Face folders (tests/golden/make_hf_moe_golden.py, which follows modeling_olmoe.py
// modeling_qwen3_moe.py and modeling_granitemoe.py) must give PyTorch's outputs within 1e-4 at every step the reference stores: each
// attention's Q and K norms and weights, the router's scores, the routing weights (the chosen experts' weights, 0
// elsewhere), the mixture's output, the stream and the logits. An expert switched off re-runs from its layer's FFN.
#include "../fresh_trace.h"
#include "analysis/logit_attribution.h"
#include "forward/mechanisms/architecture.h"
#include "hf/hf_config.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "ops/routing.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using test::hf_fixture;

namespace {

// The experts of row t with a routing weight other than 0.
std::vector<int> chosen_in_row(const Tensor& routing, int64_t t) {
    std::vector<int> chosen;
    for (int64_t e = 0; e < routing.dim(1); ++e)
        if (routing.row(t)(e) != 0.0f) chosen.push_back(static_cast<int>(e));
    return chosen;
}

}  // namespace

TEST_CASE("an OLMoE folder (Q and K normalised across the heads, 6 experts, top 2) matches PyTorch",
          "[hf][moe][olmoe]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_olmoe"));
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::olmoe && c.qk_norm && c.qk_norm_across_heads));
    CHECK((c.n_experts == 6 && c.experts_per_token == 2 && c.expert_d_ff == 8 && !c.normalize_routing));
    CHECK(c.dense_layers.empty());
    CHECK(loaded.unused_tensors.empty());
    const test::Expected expected = test::read_expected("hf_olmoe");
    REQUIRE(expected.tensors.count("decoder.layers.1.ffn.routing"));
    REQUIRE(expected.tensors.count("decoder.layers.0.self_attn.k_norm"));
    const Stepper stepper = test::run(loaded.model, expected.inputs);
    test::check_matches(stepper, expected);
    // Each token goes to exactly two experts; not renormalised, their weights sum to less than 1.
    const Tensor& routing = *stepper.output("decoder.layers.0.ffn.routing");
    for (int64_t t = 0; t < routing.dim(0); ++t) {
        CHECK(chosen_in_row(routing, t).size() == 2);
        CHECK(routing.row(t).sum() < 1.0f);
    }
}

TEST_CASE("a Qwen3-MoE folder (per-head Q and K norms, renormalised top 2, a dense layer) matches PyTorch",
          "[hf][moe][qwen3_moe]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_qwen3_moe"));
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::qwen3_moe && c.qk_norm && !c.qk_norm_across_heads && c.normalize_routing));
    CHECK((c.n_experts == 6 && c.expert_d_ff == 8 && c.d_ff == 24 && c.dense_layers == std::vector<int>{1}));
    CHECK(loaded.unused_tensors.empty());
    const test::Expected expected = test::read_expected("hf_qwen3_moe");
    const Stepper stepper = test::run(loaded.model, expected.inputs);
    test::check_matches(stepper, expected);
    CHECK(stepper.output("decoder.layers.0.ffn.router"));
    CHECK_FALSE(stepper.output("decoder.layers.1.ffn.router"));  // the dense layer: gate, up, down
    CHECK(stepper.output("decoder.layers.1.ffn.gated"));
    const Tensor& routing = *stepper.output("decoder.layers.0.ffn.routing");
    for (int64_t t = 0; t < routing.dim(0); ++t) CHECK(routing.row(t).sum() == Approx(1.0f).epsilon(1e-5));
}

// The largest |got − want| over the largest |want|: a step's difference relative to its scale.
float relative_diff(const Tensor& got, const Tensor& want) {
    float scale = 0.0f;
    for (float v : want.data) scale = std::max(scale, std::abs(v));
    return test::max_abs_diff(got, want) / std::max(scale, 1e-30f);
}

TEST_CASE("a Granite-MoE folder (constant multipliers, packed experts, softmax over the top 2) matches PyTorch",
          "[hf][moe][granitemoe]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_granitemoe"));
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::granitemoe && !c.qk_norm && c.normalize_routing && c.tie_embeddings));
    CHECK((c.n_experts == 6 && c.experts_per_token == 2 && c.expert_d_ff == 8 && c.dense_layers.empty()));
    CHECK((c.embedding_multiplier == 3.0f && c.residual_multiplier == 0.4f));
    CHECK((c.attention_scale == 0.3f && c.logit_scale == 0.25f));  // attention_multiplier, 1 / logits_scaling
    CHECK(loaded.unused_tensors.empty());
    CHECK(describe_architecture(c).find(", embeddings ×3, each sublayer's write ×0.4") != std::string::npos);
    const test::Expected expected = test::read_expected("hf_granitemoe");
    for (const char* path : {"tgt.embed", "decoder.layers.0.residual1", "decoder.layers.1.residual2",
                             "decoder.layers.1.self_attn.scaled", "decoder.layers.1.ffn.routing", "logits"})
        REQUIRE(expected.tensors.count(path));
    const Stepper stepper = test::run(loaded.model, expected.inputs);
    test::check_matches(stepper, expected);
    for (const auto& [path, want] : expected.tensors) {  // every stored step within 1e-4 of its scale
        INFO("step " << path);
        CHECK(relative_diff(*stepper.output(path), want) < 1e-4f);
    }
    // GraniteMoeTopKGating's softmax over the top 2 logits: each token's two weights sum to 1.
    const Tensor& routing = *stepper.output("decoder.layers.0.ffn.routing");
    for (int64_t t = 0; t < routing.dim(0); ++t) {
        CHECK(chosen_in_row(routing, t).size() == 2);
        CHECK(routing.row(t).sum() == Approx(1.0f).epsilon(1e-5));
    }
}

TEST_CASE("the embedding and residual multipliers are applied, each where the reference applies it",
          "[hf][moe][granitemoe][multipliers]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_granitemoe"));
    const test::Expected expected = test::read_expected("hf_granitemoe");
    const Tensor& embed = expected.tensors.at("tgt.embed");
    const Tensor& residual = expected.tensors.at("decoder.layers.0.residual1");
    // With either multiplier read as 1 (ignored), the step it scales leaves the reference's.
    ModelConfig no_embedding = loaded.model.config;
    no_embedding.embedding_multiplier = 1.0f;
    Model model = loaded.model;
    model.config = no_embedding;
    const Stepper a = test::run(model, expected.inputs);
    CHECK(relative_diff(*a.output("tgt.embed"), embed) > 0.5f);
    ModelConfig no_residual = loaded.model.config;
    no_residual.residual_multiplier = 1.0f;
    model.config = no_residual;
    const Stepper b = test::run(model, expected.inputs);
    CHECK(relative_diff(*b.output("tgt.embed"), embed) < 1e-6f);  // the embeddings are not the residual's
    CHECK(relative_diff(*b.output("decoder.layers.0.residual1"), residual) > 1e-2f);
    // Each shows in its step's formula.
    auto formula = [](const Stepper& stepper, const char* path) { return stepper.step(*stepper.find(path)).formula; };
    const Stepper granite = test::run(loaded.model, expected.inputs);
    CHECK(formula(granite, "tgt.embed") == "x_emb = E_tgt[token]·m_emb");
    CHECK(formula(granite, "decoder.layers.0.residual1") == "x + m·Sublayer(RMSNorm(x))");
    CHECK(formula(a, "tgt.embed") == "x_emb = E_tgt[token]");
    CHECK(formula(b, "decoder.layers.0.residual1") == "x + Sublayer(RMSNorm(x))");
    // Direct logit attribution reads each write as m·Sublayer and the logits times 1/logits_scaling: its shares sum to
    // the metric.
    for (const char* text : {"logit:21@6", "logit-diff:21,5@8"}) {
        INFO(text);
        const auto metric = AttributionMetric::parse(text);
        REQUIRE(metric);
        const auto shares = attribute_logits(granite, *metric);
        REQUIRE(shares);
        CHECK(std::abs(shares->total - shares->metric_value) <= 1e-4 * std::max(1.0, std::abs(shares->metric_value)));
    }
}

TEST_CASE("switching an expert off zeroes its weight where it was chosen and re-runs from that FFN",
          "[hf][moe][ablation]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_olmoe"));
    const test::Expected expected = test::read_expected("hf_olmoe");
    Stepper stepper = test::run(loaded.model, expected.inputs);
    const Tensor before = *stepper.output("decoder.layers.1.ffn.routing");
    const Tensor logits_before = *stepper.output("logits");
    const Tensor attention_before = *stepper.output("decoder.layers.1.self_attn.weights");
    const int expert = chosen_in_row(before, 0).front();
    REQUIRE(stepper.set_expert_ablated({Stack::decoder, 1}, expert, true));
    test::require_fresh_trace(stepper);
    const Tensor& after = *stepper.output("decoder.layers.1.ffn.routing");
    for (int64_t t = 0; t < after.dim(0); ++t) {
        CHECK(after.row(t)(expert) == 0.0f);
        for (int e : chosen_in_row(before, t))  // the other chosen experts keep their weights
            if (e != expert) CHECK(after.row(t)(e) == before.row(t)(e));
    }
    CHECK(test::max_abs_diff(*stepper.output("logits"), logits_before) > 1e-4f);
    // Layer 1's attention comes before its FFN: untouched.
    CHECK(test::max_abs_diff(*stepper.output("decoder.layers.1.self_attn.weights"), attention_before) == 0.0f);
    REQUIRE(stepper.set_expert_ablated({Stack::decoder, 1}, expert, false));
    CHECK(stepper.inputs().ablated_experts.empty());
    CHECK(test::max_abs_diff(*stepper.output("logits"), logits_before) == 0.0f);
    CHECK_FALSE(stepper.set_expert_ablated({Stack::decoder, 1}, 6, true));  // 6 experts: 0..5
    CHECK_FALSE(stepper.set_expert_ablated({Stack::decoder, 2}, 0, true));  // 2 layers
}

TEST_CASE("routing: the top k of the softmax, renormalised when asked, ties to the lower index",
          "[moe][routing]") {
    const Tensor logits = Tensor::from_matrix((Mat(1, 4) << 0.5f, 2.0f, 2.0f, -1.0f).finished());
    CHECK(top_k_experts(logits.data.data(), 4, 2) == std::vector<int>{1, 2});
    const Tensor plain = route_top_k(logits, 1, false, {});
    CHECK(chosen_in_row(plain, 0) == std::vector<int>{1});
    CHECK(plain.row(0)(1) < 0.5f);  // softmax's share of the whole row
    const Tensor renormalised = route_top_k(logits, 2, true, {});
    CHECK(renormalised.row(0)(1) == Approx(0.5f));
    CHECK(renormalised.row(0)(2) == Approx(0.5f));
    const Tensor ablated = route_top_k(logits, 2, true, {2});
    CHECK(ablated.row(0)(2) == 0.0f);
    CHECK(ablated.row(0)(1) == Approx(0.5f));  // the others keep the weight they had
}

TEST_CASE("a mixture-of-experts config.json the engine cannot run is refused by name", "[hf][moe][errors]") {
    const std::string olmoe = test::read_text(hf_fixture("hf_olmoe") + "/config.json");
    auto edited = [&](const char* key, const nlohmann::json& value) {
        auto j = nlohmann::json::parse(olmoe);
        j[key] = value;
        return config_from_hf_json(j.dump());
    };
    REQUIRE(config_from_hf_json(olmoe));
    const auto clip = edited("clip_qkv", 8.0);
    REQUIRE_FALSE(clip);
    CHECK(clip.error().message.find("clip_qkv") != std::string::npos);
    const auto too_many = edited("num_experts_per_tok", 7);
    REQUIRE_FALSE(too_many);
    CHECK(too_many.error().message.find("num_experts_per_tok") != std::string::npos);
}
