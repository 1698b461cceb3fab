// Run B on A's input (core/analysis/run_b): A's tokens, the mask edits and switched-off heads B
// has a place for (the rest counted), then the extra heads; on real tiny models.
#include "analysis/run_b.h"
#include "analysis/trace_compare.h"
#include "hf/open_model.h"
#include "weights.h"

#include <catch2/catch.hpp>

using namespace attnlab;

namespace {

constexpr int kVocab = 40;

ModelConfig tiny_config() {
    auto c = preset_config("tiny", kVocab, kVocab);
    REQUIRE(c);
    return *c;
}

// A: the tiny model on fixed tokens with one cross-attention mask edit and two switched-off heads.
ForwardInputs a_inputs() {
    ForwardInputs in;
    in.src_ids = {5, 6, 7, 8, 2};
    in.tgt_ids = {1, 9, 10, 11};
    in.mask_overrides[AttentionUse::cross][{2, 1}] = false;
    in.mask_overrides[AttentionUse::encoder_self][{0, 3}] = false;
    in.ablated_heads[{AttentionUse::decoder_self, 0}] = {1, 3};
    in.ablated_heads[{AttentionUse::decoder_self, 1}] = {0};
    return in;
}

Stepper run(const ModelConfig& config, const Weights& weights, const ForwardInputs& inputs) {
    auto s = Stepper::create(config, weights, inputs);
    if (!s) FAIL(s.error().message);
    s->run_all();
    return std::move(*s);
}

}  // namespace

TEST_CASE("run B of the same model keeps A's mask edits and switched-off heads", "[analysis]") {
    const ModelConfig config = tiny_config();
    const Weights weights = init_weights(config, 11);
    const ForwardInputs in = a_inputs();
    auto b = make_run_b(in, config, weights, {});
    REQUIRE(b);
    CHECK(b->dropped() == 0);
    CHECK(b->stepper.cursor() == 0);  // not yet run
    CHECK(b->stepper.inputs().src_ids == in.src_ids);
    CHECK(b->stepper.inputs().tgt_ids == in.tgt_ids);
    CHECK(b->stepper.inputs().mask_overrides == in.mask_overrides);
    CHECK(b->stepper.inputs().ablated_heads == in.ablated_heads);

    // B is A exactly, and both differ from the run without A's edits.
    const Stepper a = run(config, weights, in);
    b->stepper.run_all();
    CHECK(diff_step(a, b->stepper, "logits")->max_abs == 0.0f);
    ForwardInputs plain;
    plain.src_ids = in.src_ids;
    plain.tgt_ids = in.tgt_ids;
    CHECK(diff_step(run(config, weights, plain), b->stepper, "logits")->max_abs > 0.0f);
}

TEST_CASE("run B of a model with fewer layers and heads keeps what applies and counts the rest", "[analysis]") {
    const ModelConfig config = tiny_config();
    ModelConfig small = config;
    small.n_decoder_layers = 1;
    small.n_heads = 2;
    const ForwardInputs in = a_inputs();
    auto b = make_run_b(in, small, init_weights(small, 3), {});
    REQUIRE(b);
    // decoder_self layer 0 head 1 fits; head 3 (H = 2) and layer 1 (one decoder layer) do not.
    const std::map<AttentionSite, std::set<int>> kept = {{{AttentionUse::decoder_self, 0}, {1}}};
    CHECK(b->stepper.inputs().ablated_heads == kept);
    CHECK(b->dropped_heads == 2);
    CHECK(b->stepper.inputs().mask_overrides == in.mask_overrides);  // both masks exist in B
    CHECK(b->dropped_mask_cells == 0);
    CHECK(b->dropped() == 2);

    // Another architecture: a decoder-only model has no encoder or cross-attention masks.
    ModelConfig gpt = config;
    gpt.arch = Arch::decoder_only;
    gpt.n_encoder_layers = 0;
    gpt.src_vocab_size = 0;
    auto d = make_run_b(in, gpt, init_weights(gpt, 4), {});
    REQUIRE(d);
    CHECK(d->stepper.inputs().mask_overrides.empty());
    CHECK(d->dropped_mask_cells == 2);
    CHECK(d->stepper.inputs().ablated_heads == in.ablated_heads);  // its decoder has both layers, 4 heads
    CHECK(d->dropped_heads == 0);
    d->stepper.run_all();
    CHECK(d->stepper.output("logits"));
}

TEST_CASE("run B switches off the extra heads, and a head B does not have is an error", "[analysis]") {
    const ModelConfig config = tiny_config();
    const Weights weights = init_weights(config, 11);
    ForwardInputs in = a_inputs();
    in.mask_overrides.clear();
    in.ablated_heads.clear();
    const AttentionSite cross1{AttentionUse::cross, 1};
    auto b = make_run_b(in, config, weights, {{cross1, 2}});
    REQUIRE(b);
    CHECK(b->stepper.inputs().ablated_heads == std::map<AttentionSite, std::set<int>>{{cross1, {2}}});
    const Stepper a = run(config, weights, in);
    b->stepper.run_all();
    CHECK(diff_step(a, b->stepper, "decoder.layers.1.cross_attn.weights")->max_abs == 0.0f);
    auto context = diff_step(a, b->stepper, "decoder.layers.1.cross_attn.context");  // (H, T, D): head 2 zeroed
    REQUIRE(context);
    CHECK(context->max_abs > 0.0f);
    const Tensor& ctx_a = *a.output("decoder.layers.1.cross_attn.context");
    const int64_t per_head = ctx_a.dim(1) * ctx_a.dim(2);
    for (int64_t i = 0; i < ctx_a.numel(); ++i)
        REQUIRE(context->difference.data[static_cast<size_t>(i)] ==
                (i / per_head == 2 ? -ctx_a.data[static_cast<size_t>(i)] : 0.0f));

    // A's switched-off heads and the extra ones together.
    auto both = make_run_b(a_inputs(), config, weights, {{cross1, 2}, {{AttentionUse::decoder_self, 0}, 1}});
    REQUIRE(both);
    CHECK(both->stepper.inputs().ablated_heads.at(cross1) == std::set<int>{2});
    CHECK(both->stepper.inputs().ablated_heads.at({AttentionUse::decoder_self, 0}) == std::set<int>{1, 3});

    auto no_layer = make_run_b(in, config, weights, {{{AttentionUse::encoder_self, 5}, 0}});
    REQUIRE_FALSE(no_layer);
    CHECK(no_layer.error().message == "B has no attention encoder.layers.5.self_attn");
    auto far = make_run_b(in, config, weights, {{{AttentionUse::cross, 1 << 22}, 0}});  // a hand-edited setting
    REQUIRE_FALSE(far);
    CHECK(far.error().message == "B has no attention decoder.layers.4194304.cross_attn");
    auto no_head = make_run_b(in, config, weights, {{cross1, 4}});
    REQUIRE_FALSE(no_head);
    CHECK(no_head.error().message == "decoder.layers.1.cross_attn has no head 4 in B (heads 0..3)");
    auto negative = make_run_b(in, config, weights, {{cross1, -1}});
    CHECK_FALSE(negative);
}

TEST_CASE("run B reads A's tokens, or says in one line why it cannot", "[analysis]") {
    const ModelConfig config = tiny_config();
    ModelConfig narrow = config;
    narrow.src_vocab_size = 8;  // A's source ids reach 8
    auto b = make_run_b(a_inputs(), narrow, init_weights(narrow, 2), {});
    REQUIRE_FALSE(b);
    CHECK(b.error().message.rfind("B cannot read A's input: source token 3 has id 8", 0) == 0);
    CHECK(b.error().message.find('\n') == std::string::npos);

    // Token types go to a B that has them and are left out for one that has none.
    ForwardInputs typed = a_inputs();
    typed.src_token_types = {0, 0, 1, 1, 1};
    auto plain = make_run_b(typed, config, init_weights(config, 2), {});
    REQUIRE(plain);
    CHECK(plain->stepper.inputs().src_token_types.empty());
    auto bert = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_bert");
    REQUIRE(bert);
    REQUIRE(bert->model.config.type_vocab_size == 2);
    auto with_types = make_run_b(typed, bert->model.config, bert->model.weights, {});
    REQUIRE(with_types);
    CHECK(with_types->stepper.inputs().src_token_types == typed.src_token_types);
    CHECK(with_types->dropped_heads == 3);       // BERT has no decoder
    CHECK(with_types->dropped_mask_cells == 1);  // nor cross-attention; its encoder_self mask keeps A's cell
}
