// The stepper: stepping equals a full run, stepping back is exact, and every kind of edit's
// incremental re-run equals a full recompute while touching only the steps it affects.
#include "forward/step_path.h"
#include "hf/open_model.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <map>

using namespace attnlab;
using namespace attnlab::test;

namespace {

std::vector<ModelConfig> architectures() {
    ModelConfig post = small_config();
    ModelConfig pre = small_config();
    pre.norm_first = true;
    pre.activation = Activation::gelu;
    pre.positional = Positional::learned;
    ModelConfig enc = small_config();
    enc.arch = Arch::encoder_only;
    enc.n_decoder_layers = 0;
    enc.final_norm = false;
    ModelConfig dec = small_config();
    dec.arch = Arch::decoder_only;
    dec.n_encoder_layers = 0;
    dec.tie_embeddings = true;
    return {post, pre, enc, dec};
}

// Every step's output of `a` equals that of a fresh stepper on the same state, bit for bit.
void require_same_as_fresh_run(const Stepper& a) {
    auto b = Stepper::create(a.config(), a.weights(), a.inputs());
    REQUIRE(b);
    b->run_all();
    REQUIRE(a.size() == b->size());
    for (const Step& step : b->steps()) {
        INFO(step.path);
        REQUIRE(a.output(step.path));
        CHECK(bit_equal(*a.output(step.path), *b->output(step.path)));
    }
}

std::map<std::string, uint64_t> versions(const Stepper& s) {
    std::map<std::string, uint64_t> v;
    for (const Step& step : s.steps())
        if (const TraceEntry* e = s.run_facts(step.path)) v[step.path] = e->version;
    return v;
}

// Index of the first step whose output was recomputed since `before`; size() if none.
size_t first_recomputed(const Stepper& s, const std::map<std::string, uint64_t>& before) {
    for (size_t i = 0; i < s.size(); ++i) {
        auto it = before.find(s.step(i).path);
        if (it == before.end() || s.run_facts(s.step(i).path)->version != it->second) return i;
    }
    return s.size();
}

size_t index_of(const Stepper& s, const std::string& path) {
    auto i = s.find(path);
    REQUIRE(i);
    return *i;
}

}  // namespace

TEST_CASE("running step by step equals a full run, for every architecture", "[stepper]") {
    for (const ModelConfig& c : architectures()) {
        INFO(to_string(c.arch) << (c.norm_first ? " pre-LN" : " post-LN"));
        Stepper stepwise = make_stepper(c);
        size_t n = 0;
        while (stepwise.step_forward()) ++n;
        CHECK(n == stepwise.size());
        CHECK(stepwise.cursor() == stepwise.size());
        require_same_as_fresh_run(stepwise);
    }
}

TEST_CASE("the forward pass lists named steps with titles, formulas and inputs", "[stepper]") {
    Stepper s = make_stepper(small_config());
    for (const char* path : {"src.embed",
                             "src.pos",
                             "src.input",
                             "masks.encoder_self",
                             "encoder.layers.0.self_attn.q",
                             "encoder.layers.0.self_attn.scores",
                             "encoder.layers.0.self_attn.scaled",
                             "encoder.layers.0.self_attn.masked",
                             "encoder.layers.0.self_attn.weights",
                             "encoder.layers.0.self_attn.context",
                             "encoder.layers.0.self_attn.concat",
                             "encoder.layers.0.self_attn.out",
                             "encoder.layers.0.norm1",
                             "encoder.layers.1.ffn.hidden",
                             "encoder.output",
                             "masks.look_ahead",
                             "masks.decoder_self",
                             "masks.cross",
                             "decoder.layers.1.cross_attn.weights",
                             "decoder.layers.1.norm3",
                             "decoder.output",
                             "logits",
                             "probs"}) {
        INFO(path);
        auto i = s.find(path);
        REQUIRE(i);
        CHECK_FALSE(s.step(*i).title.empty());
        CHECK_FALSE(s.step(*i).formula.empty());
    }
    // Every input names an earlier step.
    for (size_t i = 0; i < s.size(); ++i)
        for (const StepId& in : s.step(i).inputs) CHECK(index_of(s, step_path(in)) < i);
    CHECK(step_paths(s.step(index_of(s, "decoder.layers.0.cross_attn.k")).inputs) ==
          std::vector<std::string>{"encoder.output"});
}

TEST_CASE("steps read typed controls: the ids, one use's mask cells, one attention's ablated heads", "[stepper]") {
    const Stepper s = make_stepper(small_config());
    const auto controls_of = [&](const std::string& path) { return s.step(index_of(s, path)).controls; };
    const AttentionSite cross{AttentionUse::cross, 1};
    CHECK(controls_of("src.embed") == std::vector<Control>{kSrcIdsControl});
    CHECK(controls_of("masks.cross") == std::vector<Control>{kTgtIdsControl, Control::mask_of(AttentionUse::cross)});
    CHECK(controls_of("decoder.layers.1.cross_attn.context") == std::vector<Control>{Control::ablation_of(cross)});
    CHECK(controls_of("decoder.layers.1.cross_attn.q").empty());
    // Their names, as a step's signature lists them.
    CHECK(Control::mask_of(AttentionUse::cross).name() == "mask:masks.cross");
    CHECK(Control::ablation_of(cross).name() == "ablation:decoder.layers.1.cross_attn");
    CHECK(kSrcTokenTypesControl.name() == "src_token_types");
}

TEST_CASE("step back then forward gives the same outputs, and un-run steps are not readable", "[stepper]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const Tensor logits = *s.output("logits");
    const size_t weights_at = index_of(s, "decoder.layers.1.self_attn.weights");
    const Tensor w = *s.output("decoder.layers.1.self_attn.weights");
    s.run_to(weights_at);  // back to just before that step
    CHECK(s.cursor() == weights_at);
    CHECK(s.output("decoder.layers.1.self_attn.weights") == nullptr);
    CHECK(s.output("logits") == nullptr);
    CHECK(s.output("decoder.layers.1.self_attn.masked") != nullptr);
    REQUIRE(s.step_forward());
    CHECK(s.last_computed() == 1);
    CHECK(bit_equal(*s.output("decoder.layers.1.self_attn.weights"), w));
    REQUIRE(s.step_back());
    REQUIRE(s.step_forward());
    s.run_all();
    CHECK(bit_equal(*s.output("logits"), logits));
    CHECK_FALSE(s.step_forward());
    s.run_to(0);
    CHECK_FALSE(s.step_back());
}

TEST_CASE("each kind of edit re-runs only what it affects and equals a full recompute", "[stepper]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const size_t n = s.size();
    const size_t first_decoder = index_of(s, "tgt.embed");

    SECTION("a target token: no encoder step re-runs") {
        const auto before = versions(s);
        REQUIRE(s.set_tgt_ids({1, 6, 13, 8}));
        CHECK(first_recomputed(s, before) == first_decoder);
        CHECK(s.last_computed() <= n - first_decoder);
        require_same_as_fresh_run(s);
    }
    SECTION("a source token") {
        REQUIRE(s.set_src_ids({5, 9, 3, 12, 2}));
        CHECK(s.last_computed() < n);  // the target embedding, masks and positions are reused
        require_same_as_fresh_run(s);
    }
    SECTION("a longer target") {
        REQUIRE(s.set_tgt_ids({1, 6, 11, 8, 4, 4}));
        require_same_as_fresh_run(s);
    }
    SECTION("a mask cell") {
        const auto before = versions(s);
        REQUIRE(s.set_mask_cell(AttentionUse::decoder_self, 3, 1, false));
        CHECK(s.output("masks.decoder_self")->data[3 * 4 + 1] == 0.0f);
        CHECK(first_recomputed(s, before) == index_of(s, "masks.decoder_self"));
        require_same_as_fresh_run(s);
        REQUIRE(s.set_mask_cell(AttentionUse::cross, 0, 4, false));
        require_same_as_fresh_run(s);
        s.clear_mask_overrides(AttentionUse::decoder_self);
        CHECK(s.output("masks.decoder_self")->data[3 * 4 + 1] == 1.0f);
        require_same_as_fresh_run(s);
    }
    SECTION("a weight value: re-runs from the first step that reads it") {
        const auto before = versions(s);
        REQUIRE(s.set_weight_value("decoder.layers.1.linear2.weight", 5, 0.75f));
        CHECK(first_recomputed(s, before) == index_of(s, "decoder.layers.1.ffn.out"));
        CHECK(s.last_computed() == n - index_of(s, "decoder.layers.1.ffn.out"));  // everything after it depends on it
        require_same_as_fresh_run(s);
    }
    SECTION("an ablated head") {
        const auto before = versions(s);
        REQUIRE(s.set_head_ablated(AttentionSite{AttentionUse::encoder_self, 1}, 0, true));
        CHECK(first_recomputed(s, before) == index_of(s, "encoder.layers.1.self_attn.context"));
        require_same_as_fresh_run(s);
    }
    SECTION("config switches") {
        ModelConfig c = s.config();
        c.activation = Activation::gelu;
        auto before = versions(s);
        REQUIRE(s.set_model(c, s.weights()));
        CHECK(first_recomputed(s, before) == index_of(s, "encoder.layers.0.ffn.activation"));
        CHECK(s.entry("tgt.embed")->version == before.at("tgt.embed"));  // not downstream of the FFN
        require_same_as_fresh_run(s);

        c.norm_first = true;
        before = versions(s);
        REQUIRE(s.set_model(c, s.weights()));
        CHECK(first_recomputed(s, before) == index_of(s, "encoder.layers.0.norm1"));  // embeddings and masks kept
        require_same_as_fresh_run(s);

        c.scale_embedding = false;
        before = versions(s);
        REQUIRE(s.set_model(c, s.weights()));
        CHECK(first_recomputed(s, before) == index_of(s, "src.embed"));
        CHECK(s.entry("src.pos")->version == before.at("src.pos"));
        require_same_as_fresh_run(s);

        c.n_heads = 4;  // same parameter shapes, different split
        REQUIRE(s.set_model(c, s.weights()));
        CHECK(s.output("encoder.layers.0.self_attn.q")->shape == Shape{4, 5, 4});
        require_same_as_fresh_run(s);
    }
    SECTION("a weights snapshot in which one tensor changed") {
        Weights w = s.weights();
        Tensor t = w.at("tgt_embed.weight");
        t.data[0] += 1.0f;
        w.set("tgt_embed.weight", t);
        REQUIRE(s.set_model(s.config(), w));
        CHECK(s.last_computed() <= n - first_decoder);
        require_same_as_fresh_run(s);
    }
}

TEST_CASE("an edit with the cursor mid-way re-runs only steps already reached", "[stepper]") {
    Stepper s = make_stepper(small_config());
    const size_t mid = index_of(s, "decoder.layers.0.self_attn.q");
    s.run_to(mid);
    REQUIRE(s.set_src_ids({5, 9, 7, 12, 13, 2}));
    CHECK(s.cursor() == mid);
    CHECK(s.output("decoder.layers.0.self_attn.q") == nullptr);
    s.run_all();
    require_same_as_fresh_run(s);
}

TEST_CASE("bad edits are refused with a message and change nothing", "[stepper]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const Tensor logits = *s.output("logits");
    auto st = s.set_src_ids({5, 99});
    REQUIRE_FALSE(st);
    CHECK_THAT(st.error().message, Catch::Contains("id 99"));
    CHECK_FALSE(s.set_tgt_ids(std::vector<int>(17, 4)));  // longer than max_len 16
    CHECK_FALSE(s.set_tgt_ids({}));
    CHECK_FALSE(s.set_mask_cell(AttentionUse::encoder_self, 16, 0, false));  // outside max_len 16
    CHECK_FALSE(s.set_head_ablated(AttentionSite{AttentionUse::encoder_self, 0}, 2, true));
    CHECK_FALSE(s.set_head_ablated(AttentionSite{AttentionUse::encoder_self, 9}, 0, true));
    CHECK_FALSE(s.set_weight_value("no.such.weight", 0, 1.0f));
    CHECK_FALSE(s.set_weight_value("generator.weight", 1 << 20, 1.0f));
    ModelConfig c = s.config();
    c.d_model = 32;  // the weights no longer fit
    auto bad = s.set_model(c, s.weights());
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains("src_embed.weight"));
    CHECK(bit_equal(*s.output("logits"), logits));
}

TEST_CASE("a new width rebuilds every step that depends on it", "[stepper]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    ModelConfig c = s.config();
    c.d_model = 32;
    c.n_heads = 4;
    REQUIRE(s.set_model(c, random_weights(c, 3)));
    CHECK(s.output("src.pos")->shape == Shape{5, 32});
    require_same_as_fresh_run(s);
}

TEST_CASE("a switch that removes the step at the cursor keeps the steps already run", "[stepper]") {
    Stepper s = make_stepper(small_config());
    s.run_to(index_of(s, "src.pos"));  // src.embed has run, src.pos is next
    ModelConfig c = s.config();
    c.positional = Positional::none;
    REQUIRE(s.set_model(c, s.weights()));
    CHECK(s.cursor() == 1);
    CHECK(s.output("src.embed") != nullptr);
    s.run_all();
    require_same_as_fresh_run(s);
}

TEST_CASE("mask cells outside a shortened sequence are forgotten", "[stepper]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    REQUIRE(s.set_mask_cell(AttentionUse::encoder_self, 4, 0, false));
    REQUIRE(s.set_src_ids({5, 9, 2}));  // S = 3: row 4 no longer exists
    REQUIRE(s.set_src_ids({5, 9, 7, 12, 2}));
    CHECK(s.output("masks.encoder_self")->data[4 * 5 + 0] == 1.0f);  // not brought back on another token
    CHECK(s.inputs().mask_overrides.at(AttentionUse::encoder_self).empty());
}

TEST_CASE("find(StepId) names every step of a model, gated FFN parts included, and ids order", "[stepper]") {
    // A Llama's gated FFN has gate, activation, up, gated and out: five of FfnPart's six values in one layer.
    auto llama = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_llama");
    if (!llama) FAIL(llama.error().message);
    auto s = Stepper::create(llama->model.config, llama->model.weights, ForwardInputs{{}, {1, 5, 7}, {}, {}});
    if (!s) FAIL(s.error().message);
    s->run_all();
    for (size_t i = 0; i < s->size(); ++i) {
        INFO(s->step(i).path);
        REQUIRE(s->find(s->step(i).record.id) == i);
    }
    const StepId gate = StepId::ffn_at(Stack::decoder, 0, FfnPart::gate);
    const StepId gated = StepId::ffn_at(Stack::decoder, 0, FfnPart::gated);
    REQUIRE(s->find(gate).has_value());
    REQUIRE(s->find(gated).has_value());
    CHECK(s->find(gate) != s->find(gated));
    CHECK(gate < gated);
    CHECK(StepIdHash{}(gate) != StepIdHash{}(gated));
}
