// The Positional view's comparison (app/model/position_comparison.h) on the Hugging Face fixtures: GPT-2's learned
// table and Llama's RoPE come from the open model and are marked as its own; the attention beside them is the
// stepper's own weights of the chosen head.
#include "position_comparison.h"

#include "hf/open_model.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

LoadedModel open_fixture(const std::string& name) {
    auto loaded = open_model(kFixtures + name);
    if (!loaded) FAIL(loaded.error().message);
    return std::move(*loaded);
}

const SchemePanel* find(const PositionComparison& c, PositionScheme s) {
    for (const SchemePanel& p : c.panels)
        if (p.scheme == s) return &p;
    return nullptr;
}

}  // namespace

TEST_CASE("position comparison: GPT-2's own scheme is its learned table", "[position_comparison]") {
    const LoadedModel m = open_fixture("hf_gpt2");
    const PositionComparison c = position_comparison(m.model.config, m.model.weights, 6, 0);
    REQUIRE(c.own_panel >= 0);
    const SchemePanel& own = c.panels[static_cast<size_t>(c.own_panel)];
    CHECK(own.scheme == PositionScheme::learned);
    CHECK(own.from_model);
    CHECK(own.positions() == 6);
    CHECK(own.at(0, 3, 3) == Approx(1.0f));
    // the other schemes are drawn from their defaults, on the same sentence
    REQUIRE(find(c, PositionScheme::sinusoid));
    CHECK_FALSE(find(c, PositionScheme::sinusoid)->from_model);
    REQUIRE(find(c, PositionScheme::rope));
    CHECK_FALSE(find(c, PositionScheme::rope)->from_model);
    REQUIRE(find(c, PositionScheme::nope));
    REQUIRE(find(c, PositionScheme::alibi));
    CHECK(find(c, PositionScheme::alibi)->heads() == m.model.config.n_heads);  // one slope per head of the model
    for (const SchemePanel& p : c.panels) CHECK(p.positions() == 6);
}

TEST_CASE("position comparison: Llama's RoPE from its own frequencies, and its attention beside it",
          "[position_comparison]") {
    const LoadedModel m = open_fixture("hf_llama");
    const ModelConfig& config = m.model.config;
    const PositionComparison c = position_comparison(config, m.model.weights, 5, 0);
    REQUIRE(c.own_panel >= 0);
    const SchemePanel& rope = c.panels[static_cast<size_t>(c.own_panel)];
    CHECK(rope.scheme == PositionScheme::rope);
    CHECK(rope.from_model);
    CHECK_FALSE(find(c, PositionScheme::learned));  // no table to show
    const SchemePanel expected = rope_panel(5, rope_inverse_frequencies(config.rope, config.d_head()), true);
    CHECK(rope.at(0, 4, 1) == expected.at(0, 4, 1));

    ForwardInputs in;
    in.tgt_ids = {1, 14, 9, 17, 6};
    auto stepper = Stepper::create(config, m.model.weights, in);
    REQUIRE(stepper);
    CHECK(model_attention(*stepper, 0, 1).entry == nullptr);  // not run yet
    stepper->run_all();
    const ModelAttentionPick pick = model_attention(*stepper, 99, 1);  // the layer is clamped to the last
    CHECK(pick.site.use == AttentionUse::decoder_self);
    CHECK(pick.site.layer == comparison_layers(config) - 1);
    REQUIRE(pick.entry);
    CHECK(pick.entry->value.dim(0) == config.n_heads);
    CHECK(pick.entry->value.dim(1) == 5);
    CHECK(pick.entry->value.slice(1)(0, 0) == Approx(1.0f));  // the first query sees only itself
}

TEST_CASE("position comparison: a NoPE layer of a rotary model is marked NoPE", "[position_comparison]") {
    LoadedModel m = open_fixture("hf_llama");
    m.model.config.no_rope_layers = {1};
    const PositionComparison rope_layer = position_comparison(m.model.config, m.model.weights, 4, 0);
    const PositionComparison nope_layer = position_comparison(m.model.config, m.model.weights, 4, 1);
    CHECK(rope_layer.panels[static_cast<size_t>(rope_layer.own_panel)].scheme == PositionScheme::rope);
    CHECK(nope_layer.panels[static_cast<size_t>(nope_layer.own_panel)].scheme == PositionScheme::nope);
}

TEST_CASE("position comparison: a T5's buckets are its own, and its run's bias joins them once traced",
          "[position_comparison]") {
    LoadedModel m = open_fixture("hf_llama");  // its sizes, with T5's positions instead of RoPE
    ModelConfig& config = m.model.config;
    config.positional = Positional::relative_buckets;
    config.relative_buckets = 8;
    config.relative_max_distance = 16;
    const PositionComparison before = position_comparison(config, m.model.weights, 4, 0);
    REQUIRE(before.own_panel >= 0);
    CHECK(before.panels[static_cast<size_t>(before.own_panel)].scheme == PositionScheme::t5_buckets);
    CHECK(before.panels[static_cast<size_t>(before.own_panel)].from_model);
    CHECK_FALSE(find(before, PositionScheme::t5_bias));
    Tensor bias({config.n_heads, 4, 4});
    for (int64_t k = 0; k < bias.numel(); ++k) bias.data[k] = 0.1f * static_cast<float>(k % 7);
    const PositionComparison after = position_comparison(config, m.model.weights, 4, 0, &bias);
    REQUIRE(after.own_panel >= 0);
    const SchemePanel& own = after.panels[static_cast<size_t>(after.own_panel)];
    CHECK(own.scheme == PositionScheme::t5_bias);
    CHECK(own.heads() == config.n_heads);
    CHECK(own.causal);  // a decoder-only stack looks back
    CHECK(own.at(1, 2, 1) == bias.slice(1)(2, 1));
}
