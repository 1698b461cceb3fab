// What a head or an FFN pushes up and down (core/analysis/component_tokens): on GPT-2 (pre-LN, final LayerNorm
// only), a component's direct logit for a token is its total share in attribute_logits(logit:token@q).
#include "analysis/component_tokens.h"
#include "analysis/logit_attribution.h"
#include "hf/open_model.h"
#include "stepper.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

namespace {

Stepper gpt2_run() {
    auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2");
    REQUIRE(loaded);
    ForwardInputs inputs;
    inputs.tgt_ids = {49, 7, 23, 0, 41, 12, 12, 30, 5};
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, inputs);
    REQUIRE(stepper);
    stepper->run_all();
    return std::move(*stepper);
}

// The component's total share of logit:token@q (a head: over every source position).
double share_of(const Stepper& stepper, const ComponentRef& ref, int token, int64_t q) {
    AttributionMetric metric;
    metric.token = token;
    metric.position = q;
    auto a = attribute_logits(stepper, metric);
    REQUIRE(a);
    double sum = 0.0;
    for (const AttributionComponent& c : a->components) {
        if (ref.ffn ? c.kind == ComponentKind::ffn && c.layer == ref.layer
                    : c.kind == ComponentKind::head && c.layer == ref.site.layer && c.head == ref.head)
            sum += c.value;
    }
    return sum;
}

}  // namespace

TEST_CASE("component_tokens: a head's and an FFN's direct logits are their attribution shares", "[attribution]") {
    const Stepper stepper = gpt2_run();
    const int64_t q = 6;
    ComponentRef head;
    head.site = {AttentionUse::decoder_self, 1};
    head.head = 1;
    ComponentRef ffn;
    ffn.ffn = true;
    ffn.layer = 0;
    for (const ComponentRef& ref : {head, ffn}) {
        auto tokens = component_tokens(stepper, ref, q, 5);
        REQUIRE(tokens);
        REQUIRE(tokens->up.size() == 5);
        REQUIRE(tokens->down.size() == 5);
        CHECK(tokens->up.front().value > tokens->up.back().value);
        CHECK(tokens->down.front().value < tokens->down.back().value);
        CHECK(tokens->up.back().value > tokens->down.back().value);
        for (const TokenScore& t : {tokens->up.front(), tokens->down.front()}) {
            const double want = share_of(stepper, ref, t.id, q);
            CHECK(std::fabs(t.value - want) <= 1e-3 + 1e-3 * std::fabs(want));
        }
    }
}

TEST_CASE("component_tokens: one-line errors for a missing head, layer or position", "[attribution]") {
    const Stepper stepper = gpt2_run();
    ComponentRef head;
    head.site = {AttentionUse::decoder_self, 0};
    head.head = 99;
    CHECK_FALSE(component_tokens(stepper, head, 0, 5));
    head.head = 0;
    CHECK_FALSE(component_tokens(stepper, head, 9, 5));
    ComponentRef ffn;
    ffn.ffn = true;
    ffn.layer = 7;
    CHECK_FALSE(component_tokens(stepper, ffn, 0, 5));
    ffn.layer = 0;
    CHECK(component_tokens(stepper, ffn, 0, 5));
}
