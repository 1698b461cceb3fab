// Direct logit attribution (core/analysis/logit_attribution) against the PyTorch oracle of
// tests/golden/make_attribution_golden.py (fixtures/attribution.json): GPT-2, Llama, ours post-LN and pre-LN, Marian,
// BERT with its MLM head.
#include "analysis/logit_attribution.h"
#include "hf/open_model.h"
#include "stepper.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

nlohmann::json oracle_cases() {
    std::ifstream in(kFixtures + "attribution.json");
    REQUIRE(in);
    return nlohmann::json::parse(in).at("cases");
}

std::string model_path(const std::string& fixture) {
    return fixture.rfind("hf_", 0) == 0 ? kFixtures + fixture : kFixtures + fixture + ".model.safetensors";
}

// The fixture's model run on the ids, every step computed.
Stepper run_fixture(const std::string& fixture, std::vector<int> src, std::vector<int> tgt,
                    std::vector<int> src_types = {}) {
    auto loaded = open_model(model_path(fixture));
    REQUIRE(loaded);
    ForwardInputs inputs;
    inputs.src_ids = std::move(src);
    inputs.tgt_ids = std::move(tgt);
    inputs.src_token_types = std::move(src_types);
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, inputs);
    REQUIRE(stepper);
    stepper->run_all();
    return std::move(*stepper);
}

Stepper gpt2_stepper() { return run_fixture("hf_gpt2", {}, {49, 7, 23, 0, 41, 12, 12, 30, 5}); }

bool close(double got, double want) { return std::fabs(got - want) <= 1e-4 + 1e-4 * std::fabs(want); }

}  // namespace

TEST_CASE("attribute_logits: every family's shares sum to the metric and match PyTorch's", "[attribution]") {
    const nlohmann::json cases = oracle_cases();
    REQUIRE(cases.size() == 7);
    for (const nlohmann::json& c : cases) {
        const std::string name = c.at("case");
        INFO(name);
        const Stepper stepper = run_fixture(c.at("fixture"), c.at("src_ids"), c.at("tgt_ids"), c.at("src_token_types"));
        auto metric = AttributionMetric::parse(c.at("metric"));
        REQUIRE(metric);
        auto a = attribute_logits(stepper, *metric);
        REQUIRE(a);
        // The metric is the stepper's own logit (or difference of two).
        const Tensor& logits = *stepper.output(StepId::head(StepKind::logits, stepper.config()));
        const int64_t V = logits.dim(1), q = metric->position;
        double want = logits.data[static_cast<size_t>(q * V + metric->token)];
        if (metric->kind == AttributionMetricKind::logit_diff)
            want -= logits.data[static_cast<size_t>(q * V + metric->other)];
        CHECK(a->metric_value == Approx(want).epsilon(1e-12));
        CHECK(a->metric_value == Approx(c.at("metric_from_logits").get<double>()).epsilon(1e-4).margin(1e-5));
        // The shares sum to it.
        CHECK(std::fabs(a->total - a->metric_value) <= 1e-4 * std::max(1.0, std::fabs(a->metric_value)));
        // Every share matches the oracle's; the ones left out are the oracle's zeros (masked keys).
        const std::map<std::string, double> oracle = c.at("components");
        std::map<std::string, double> got;
        for (const AttributionComponent& k : a->components) got[k.name] = k.value;
        CHECK(got.size() == a->components.size());  // names are unique
        for (const auto& [component, value] : oracle) {
            INFO(component);
            const auto it = got.find(component);
            if (it == got.end())
                CHECK(value == 0.0);
            else
                CHECK(close(it->second, value));
        }
        for (const auto& [component, value] : got) {
            INFO(component);
            CHECK(oracle.count(component) == 1);
        }
    }
}

TEST_CASE("attribute_logits: component records of an encoder-decoder (heads by source, biases, norms)",
          "[attribution]") {
    const Stepper stepper = run_fixture("post_ln_relu", {7, 4, 5, 4, 11, 2}, {1, 4, 8, 7, 9});
    auto a = attribute_logits(stepper, *AttributionMetric::parse("logit:7@2"));
    REQUIRE(a);
    int cross = 0, self = 0, norm_bias = 0, ffn = 0;
    for (const AttributionComponent& c : a->components) {
        if (c.kind == ComponentKind::head && c.use == AttentionUse::cross) {
            ++cross;
            CHECK(c.source < 6);  // a source position
        }
        if (c.kind == ComponentKind::head && c.use == AttentionUse::decoder_self) {
            ++self;
            CHECK(c.source <= 2);  // the causal mask: target positions up to the query's
        }
        norm_bias += c.kind == ComponentKind::norm_bias;
        ffn += c.kind == ComponentKind::ffn;
    }
    CHECK(cross == 2 * 2 * 6);  // 2 layers × 2 heads × 6 source positions
    CHECK(self == 2 * 2 * 3);
    CHECK(norm_bias == 2 * 3 + 1);  // each post-LN sublayer's norm and the final norm
    CHECK(ffn == 2);
    CHECK(a->components.front().kind == ComponentKind::embedding);
    CHECK(a->components.back().kind == ComponentKind::unembedding_bias);
}

TEST_CASE("attribute_logits: BERT's MLM head adds its transform's bias and its LayerNorm's beta", "[attribution]") {
    const Stepper stepper = run_fixture("hf_bert", {2, 17, 31, 8, 3, 44, 9, 3, 0}, {}, {0, 0, 0, 0, 0, 1, 1, 1, 0});
    auto a = attribute_logits(stepper, *AttributionMetric::parse("logit:17@1"));
    REQUIRE(a);
    const auto& c = a->components;
    REQUIRE(c.size() > 3);
    CHECK(c[c.size() - 3].kind == ComponentKind::head_transform_bias);
    CHECK(c[c.size() - 2].name == "head.norm.bias");
    CHECK(c.back().name == "cls.predictions.bias");
    for (const AttributionComponent& k : c) CHECK_FALSE((k.kind == ComponentKind::head && k.source == 8));  // <pad>
    CHECK(std::fabs(a->total - a->metric_value) <= 1e-4 * std::max(1.0, std::fabs(a->metric_value)));
}

TEST_CASE("attribute_logits: an ablated head has no share and the rest still sums to the metric", "[attribution]") {
    Stepper stepper = gpt2_stepper();
    const AttentionSite site{AttentionUse::decoder_self, 1};
    REQUIRE(stepper.set_head_ablated(site, 2, true));
    auto a = attribute_logits(stepper, *AttributionMetric::parse("logit:4@3"));
    REQUIRE(a);
    int heads_of_layer_1 = 0;
    for (const AttributionComponent& c : a->components) {
        CHECK_FALSE((c.kind == ComponentKind::head && c.layer == 1 && c.head == 2));
        heads_of_layer_1 += c.kind == ComponentKind::head && c.layer == 1;
    }
    CHECK(heads_of_layer_1 == 3 * 4);  // 3 heads × query 3's 4 keys
    CHECK(std::fabs(a->total - a->metric_value) <= 1e-4 * std::max(1.0, std::fabs(a->metric_value)));
}

TEST_CASE("AttributionMetric::parse: the two forms, and one-line errors for the rest", "[attribution]") {
    auto logit = AttributionMetric::parse("logit:7@2");
    REQUIRE(logit);
    CHECK(logit->kind == AttributionMetricKind::logit);
    CHECK(logit->token == 7);
    CHECK(logit->position == 2);
    CHECK(logit->to_string() == "logit:7@2");
    auto diff = AttributionMetric::parse("logit-diff:3,11@4");
    REQUIRE(diff);
    CHECK(diff->kind == AttributionMetricKind::logit_diff);
    CHECK(diff->other == 11);
    CHECK(diff->to_string() == "logit-diff:3,11@4");
    for (const char* bad : {"", "logit", "logit:7", "logit:x@1", "logit:7@-1", "logit-diff:3@1", "logit-diff:3,3@1",
                            "token:3@1", "logit:7@2x", "logit:1234567890@0"}) {
        INFO(bad);
        auto r = AttributionMetric::parse(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find('\n') == std::string::npos);
    }
    auto prob = AttributionMetric::parse("prob:7@2");
    REQUIRE_FALSE(prob);
    CHECK(prob.error().message.find("not supported yet") != std::string::npos);
}

TEST_CASE("attribute_logits: one-line errors for a position past the end, an unknown id, no logits", "[attribution]") {
    const Stepper stepper = gpt2_stepper();  // 9 positions, V = 50
    const auto error_of = [](const Stepper& s, const char* spec) {
        auto r = attribute_logits(s, *AttributionMetric::parse(spec));
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find('\n') == std::string::npos);
        return r.error().message;
    };
    CHECK(error_of(stepper, "logit:4@9").find("position 9 is past the end") != std::string::npos);
    CHECK(error_of(stepper, "logit:50@0").find("token id 50 is not in the vocabulary") != std::string::npos);
    CHECK(error_of(stepper, "logit-diff:4,99@0").find("token id 99") != std::string::npos);

    Stepper unrun = gpt2_stepper();
    unrun.run_to(0);
    CHECK(error_of(unrun, "logit:4@1").find("not reached the logits") != std::string::npos);
}
