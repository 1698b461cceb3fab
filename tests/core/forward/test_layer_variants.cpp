// Layers that differ from one another (forward/mechanisms/layer_variants.h): local layers read a second,
// sliding-window mask, NoPE layers turn neither Q nor K, local layers turn with their own RoPE base. On the tiny
// Mistral folder with layer 0 made a global NoPE layer and layer 1 a local layer of base 100.
#include "../hf/hf_golden_support.h"
#include "backward/backward_pass.h"
#include "explain/step_kind.h"
#include "forward/mechanisms/layer_variants.h"
#include "forward/step_path.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

namespace {

constexpr int kWindow = 3;  // the fixture's sliding_window

LoadedModel local_and_nope() {
    LoadedModel loaded = test::open(test::hf_fixture("hf_mistral"));
    ModelConfig& c = loaded.model.config;
    REQUIRE(c.sliding_window == kWindow);
    c.local_layers = {1};
    c.no_rope_layers = {0};
    c.local_rope_theta = 100.0f;
    REQUIRE(static_cast<bool>(validate_config(c)));
    return loaded;
}

float cell(const Tensor& m, int64_t i, int64_t j) { return m.data[static_cast<size_t>(i * m.dim(1) + j)]; }

const Step* step_at(const std::vector<Step>& steps, const std::string& path) {
    for (const Step& s : steps)
        if (s.path == path) return &s;
    return nullptr;
}

}  // namespace

TEST_CASE("which layers are local, which rotate and with which base", "[layer_variants]") {
    ModelConfig c = local_and_nope().model.config;
    CHECK((!is_local_layer(c, 0) && is_local_layer(c, 1)));
    CHECK((window_of_layer(c, 0) == 0 && window_of_layer(c, 1) == kWindow));
    CHECK(!rope_of_layer(c, 0));
    REQUIRE(rope_of_layer(c, 1));
    CHECK((rope_of_layer(c, 1)->theta == 100.0f && rope_of_layer(c, 1)->scaling == RopeScaling::none));
    CHECK(mask_of_site(c, {AttentionUse::decoder_self, 0}) == StepId::mask_of(AttentionUse::decoder_self));
    CHECK(step_path(mask_of_site(c, {AttentionUse::decoder_self, 1})) == "masks.decoder_self_local");
    CHECK((layer_kind(c, {AttentionUse::decoder_self, 0}).nope && layer_kind(c, {AttentionUse::decoder_self, 0}).mixed));
    // Mistral as it is: every layer local, one mask, every layer with the model's RoPE.
    c.local_layers.clear();
    c.no_rope_layers.clear();
    c.local_rope_theta = 0.0f;
    CHECK((is_local_layer(c, 0) && is_local_layer(c, 1) && !has_local_and_global_layers(c)));
    CHECK(mask_of_site(c, {AttentionUse::decoder_self, 1}) == StepId::mask_of(AttentionUse::decoder_self));
    CHECK(rope_of_layer(c, 1)->theta == c.rope.theta);
    CHECK(!layer_kind(c, {AttentionUse::decoder_self, 1}).mixed);
}

TEST_CASE("a local layer reads the sliding-window mask, a global one the whole causal mask", "[layer_variants]") {
    const LoadedModel loaded = local_and_nope();
    const ModelConfig& c = loaded.model.config;
    const std::vector<Step> steps = build_forward_steps(c);
    const Step* local = step_at(steps, "masks.decoder_self_local");
    REQUIRE(local);
    CHECK(explanation_kind(local->record, c) == "mask.decoder_self_local");
    CHECK(explanation_kind(step_at(steps, "masks.look_ahead")->record, c) == "mask.look_ahead");
    CHECK(step_path(step_at(steps, "decoder.layers.0.self_attn.masked")->inputs[1]) == "masks.decoder_self");
    CHECK(step_path(step_at(steps, "decoder.layers.1.self_attn.masked")->inputs[1]) == "masks.decoder_self_local");

    const Stepper s = test::run(loaded.model, test::read_expected("hf_mistral").inputs);
    const Tensor& global = *s.output("masks.decoder_self");
    const Tensor& windowed = *s.output("masks.decoder_self_local");
    const int64_t T = global.dim(0);
    REQUIRE(T > kWindow + 1);
    for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < T; ++j) {
            INFO("query " << i << ", key " << j);
            CHECK(cell(global, i, j) == (j <= i ? 1.0f : 0.0f));
            CHECK(cell(windowed, i, j) == (j <= i && i - j < kWindow ? 1.0f : 0.0f));
        }
    // The weights follow: layer 0's last query reads the first key, layer 1's cannot.
    const Tensor& w0 = *s.output("decoder.layers.0.self_attn.weights");  // (H, T, T)
    const Tensor& w1 = *s.output("decoder.layers.1.self_attn.weights");
    CHECK(w0.data[static_cast<size_t>((T - 1) * T)] > 0.0f);
    CHECK(w1.data[static_cast<size_t>((T - 1) * T)] == 0.0f);
}

TEST_CASE("a NoPE layer has no rotation and a local layer turns with its own base", "[layer_variants]") {
    const LoadedModel loaded = local_and_nope();
    const ModelConfig& c = loaded.model.config;
    const std::vector<Step> steps = build_forward_steps(c);
    CHECK(!step_at(steps, "decoder.layers.0.self_attn.q_rot"));
    CHECK(!step_at(steps, "decoder.layers.0.self_attn.k_rot"));
    const Step* scores0 = step_at(steps, "decoder.layers.0.self_attn.scores");
    REQUIRE(scores0);
    CHECK(step_path(scores0->inputs[0]) == "decoder.layers.0.self_attn.q");
    CHECK(explanation_kind(scores0->record, c) == "attn.scores_nope");
    CHECK(explanation_kind(step_at(steps, "decoder.layers.1.self_attn.scores")->record, c) == "attn.scores");

    const Stepper s = test::run(loaded.model, test::read_expected("hf_mistral").inputs);
    RopeConfig local;
    local.theta = 100.0f;
    const Tensor want = apply_rotary(*s.output("decoder.layers.1.self_attn.k"), rope_inverse_frequencies(local, c.d_head()), 0);
    CHECK(test::max_abs_diff(*s.output("decoder.layers.1.self_attn.k_rot"), want) < 1e-6f);
    const Tensor global_turn =
        apply_rotary(*s.output("decoder.layers.1.self_attn.k"), rope_inverse_frequencies(c.rope, c.d_head()), 0);
    CHECK(test::max_abs_diff(*s.output("decoder.layers.1.self_attn.k_rot"), global_turn) > 1e-3f);
}

TEST_CASE("the backward pass runs through a NoPE layer and a local layer", "[layer_variants][backward]") {
    LoadedModel loaded = local_and_nope();
    const ForwardInputs inputs = test::read_expected("hf_mistral").inputs;
    const std::string name = "layers.0.self_attn.q_proj.weight";
    auto loss_with = [&](float delta) {
        Model model = loaded.model;
        Tensor q = model.weights.at(name);
        q.data[5] += delta;
        model.weights.set(name, q);
        const Stepper s = test::run(model, inputs);
        auto pass = BackwardPass::create(s, LossSpec{});
        REQUIRE(pass);
        return pass->loss();
    };
    const Stepper s = test::run(loaded.model, inputs);
    auto pass = BackwardPass::create(s, LossSpec{});
    REQUIRE(pass);
    pass->run_all(s);
    const double eps = 1e-2;
    const double numeric = (loss_with(static_cast<float>(eps)) - loss_with(static_cast<float>(-eps))) / (2 * eps);
    CHECK(pass->param_grads().at(name).data[5] == Approx(numeric).epsilon(2e-2).margin(1e-4));
}
