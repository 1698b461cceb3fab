// The app's logic without a display: session commands, view-state persistence, launch flags.
#include "io/model_file.h"
#include "launch_options.h"
#include "sampling.h"
#include "session.h"
#include "session_support.h"
#include "view_state.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace attnlab;
using namespace attnlab::gui;
using namespace attnlab::gui::test;

TEST_CASE("text edits tokenize, mark unknown words, and re-run the trace", "[session]") {
    Session s = english_korean();
    CHECK(s.source().labels == std::vector<std::string>{"i", "like", "red", "apples", "<eos>"});
    const uint64_t before = s.stepper().entry("encoder.output")->version;
    REQUIRE(s.set_src_text("i like green apples"));
    CHECK(s.source().labels[2] == "<unk>");
    CHECK(s.source().pieces[2] == "green");  // what the user typed, for the chip's tooltip
    CHECK(s.source().unknown == std::vector<bool>{false, false, true, false, false});
    CHECK(s.stepper().entry("encoder.output")->version != before);
    REQUIRE(s.set_tgt_text("나 는 사과 를"));
    CHECK(s.target().labels.front() == "<sos>");
    REQUIRE(s.set_src_ids({4, 5, 2}));
    CHECK(s.source().pieces.empty());  // edited by hand: the ids no longer come from the text
    CHECK(s.stepper().output("logits")->dim(0) == 5);
}

TEST_CASE("a failed command keeps the last good state and reports one line", "[session]") {
    Session s = english_korean();
    const Tensor logits = *s.stepper().output("logits");
    CHECK_FALSE(s.open_model_file("/nonexistent/model.safetensors"));
    CHECK_THAT(s.error(), Catch::Contains("/nonexistent/model.safetensors"));
    CHECK(s.error().find('\n') == std::string::npos);
    CHECK_FALSE(s.set_src_text(std::string("bad \xff utf8")));
    CHECK_FALSE(s.set_src_ids({1, 500}));
    CHECK(s.src_text() == "i like red apples");
    CHECK(s.stepper().output("logits")->data == logits.data);
    REQUIRE(s.set_src_text("red apples"));
    CHECK(s.error().empty());
}

TEST_CASE("mask cells and heads toggle through the session", "[session]") {
    Session s = english_korean();
    REQUIRE(s.toggle_mask_cell(AttentionUse::encoder_self, 1, 2));
    CHECK(s.stepper().output("masks.encoder_self")->data[1 * 5 + 2] == 0.0f);
    CHECK(s.stepper().output("encoder.layers.0.self_attn.weights")->slice(0)(1, 2) == 0.0f);
    CHECK(s.stepper().inputs().mask_overrides.at(AttentionUse::encoder_self).size() == 1);
    REQUIRE(s.toggle_mask_cell(AttentionUse::encoder_self, 1, 2));
    CHECK(s.stepper().output("masks.encoder_self")->data[1 * 5 + 2] == 1.0f);
    CHECK_FALSE(s.toggle_mask_cell(AttentionUse::encoder_self, 9, 0));
    REQUIRE(s.toggle_mask_cell(AttentionUse::cross, 0, 1));  // (T, S)
    CHECK(s.stepper().output("masks.cross")->matrix()(0, 1) == 0.0f);
    REQUIRE(s.reset_mask(AttentionUse::cross));
    CHECK(s.stepper().output("masks.cross")->matrix()(0, 1) == 1.0f);

    const AttentionSite cross1{AttentionUse::cross, 1};
    REQUIRE(s.toggle_head(cross1, 3));
    CHECK(s.stepper().output("decoder.layers.1.cross_attn.context")->slice(3).isZero(0.0f));
    CHECK(s.stepper().inputs().ablated_heads.at(cross1) == std::set<int>{3});
    REQUIRE(s.toggle_head(cross1, 3));
    CHECK_FALSE(s.stepper().output("decoder.layers.1.cross_attn.context")->slice(3).isZero(0.0f));
    CHECK(s.stepper().inputs().ablated_heads.empty());
}

TEST_CASE("switches change the config, adding the weights a switch needs", "[session]") {
    Session s = english_korean();
    ModelConfig c = s.stepper().config();
    c.positional = Positional::learned;
    c.norm_first = true;
    c.activation = Activation::gelu;
    REQUIRE(s.set_config(c));
    CHECK(s.stepper().weights().find("pos_embed.weight"));
    CHECK(s.stepper().step(*s.stepper().find("src.pos")).title == "Learned position embeddings");
    c.positional = Positional::none;
    c.final_norm = false;
    REQUIRE(s.set_config(c));
    CHECK_FALSE(s.stepper().weights().find("pos_embed.weight"));
    CHECK_FALSE(s.stepper().weights().find("encoder.norm.weight"));
    CHECK_FALSE(s.stepper().find("src.pos"));
    c.n_heads = 3;  // does not divide 64
    CHECK_FALSE(s.set_config(c));
    CHECK(s.stepper().config().n_heads == 4);
}

TEST_CASE("generation appends one token at a time; translate runs to <eos> or max_len", "[session]") {
    Session s = english_korean();
    REQUIRE(s.set_tgt_text(""));
    REQUIRE(s.generate_next(false, 1.0f, 0));
    REQUIRE(s.stepper().inputs().tgt_ids.size() == 2);
    REQUIRE(s.generate_next(true, 0.7f, 42));
    CHECK(s.stepper().inputs().tgt_ids.size() == 3);
    REQUIRE(s.translate());
    const auto& tgt = s.stepper().inputs().tgt_ids;
    CHECK(tgt.front() == s.stepper().config().sos_id);
    CHECK((tgt.back() == s.stepper().config().eos_id || static_cast<int>(tgt.size()) == s.stepper().config().max_len));
}

TEST_CASE("sampled generation draws only from the top-k / top-p set, the same token for the same seed", "[session]") {
    Session s = english_korean();
    REQUIRE(s.set_tgt_text(""));
    const std::vector<int> start = s.stepper().inputs().tgt_ids;
    s.run_to(s.stepper().size());
    const Tensor* logits = s.stepper().output(StepId::head(StepKind::logits, s.stepper().config()));  // (T, V)
    REQUIRE(logits);
    const RowVec last = logits->row(logits->dim(0) - 1);
    const auto appended = [&](bool sample, float t, uint64_t seed, int k, float p) {
        REQUIRE(s.set_tgt_ids(start));
        REQUIRE(s.generate_next(sample, t, seed, k, p));
        REQUIRE(s.stepper().inputs().tgt_ids.size() == start.size() + 1);
        return s.stepper().inputs().tgt_ids.back();
    };
    const int greedy = appended(false, 1.0f, 0, 0, 1.0f);
    Eigen::Index best = 0;
    last.maxCoeff(&best);
    CHECK(greedy == static_cast<int>(best));
    std::set<int> drawn_hot;
    for (uint64_t seed = 1; seed <= 30; ++seed) {
        CHECK(appended(true, 4.0f, seed, 1, 1.0f) == greedy);    // top-k 1 is the argmax at any T
        CHECK(appended(true, 4.0f, seed, 0, 0.001f) == greedy);  // and so is a tiny top-p
        drawn_hot.insert(appended(true, 4.0f, seed, 0, 1.0f));
    }
    CHECK(drawn_hot.size() > 2);  // without a cut, a hot distribution does draw other tokens

    // With top-k 3 and top-p 0.8 at T = 2, every draw is in core's sampling set, and a seed repeats its token.
    const SamplingOptions options{2.0f, 3, 0.8f};
    auto set = sampling_set(last, options);
    REQUIRE(set);
    std::set<int> kept;
    for (const RankedToken& t : set->ranked) kept.insert(t.id);
    REQUIRE(kept.size() == static_cast<size_t>(set->n_kept));
    std::set<int> drawn;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
        const int token = appended(true, options.temperature, seed, options.top_k, options.top_p);
        CHECK(kept.count(token) == 1);
        CHECK(token == *sample_token(last, options, seed));
        CHECK(appended(true, options.temperature, seed, options.top_k, options.top_p) == token);
        drawn.insert(token);
    }
    for (size_t r = 0; r < static_cast<size_t>(set->n_kept); ++r)  // 60 draws reach every token kept with p > 0.1
        if (set->kept_p(r) > 0.1f) CHECK(drawn.count(set->ranked[r].id) == 1);

    REQUIRE(s.set_tgt_ids(start));
    CHECK_FALSE(s.generate_next(true, 1.0f, 1, 0, 1.5f));
    CHECK_THAT(s.error(), Catch::Contains("top-p"));
    CHECK_FALSE(s.generate_next(true, 1.0f, 1, -2, 1.0f));
    CHECK(s.stepper().inputs().tgt_ids == start);
}

TEST_CASE("saving and reopening a model keeps edited weights and switches", "[session]") {
    Session s = english_korean();
    REQUIRE(s.set_weight("generator.weight", 7, 2.5f));
    const auto path = (std::filesystem::temp_directory_path() / "attnlab_session_test.safetensors").string();
    REQUIRE(s.save_model_file(path));
    Session t = english_korean();
    REQUIRE(t.open_model_file(path));
    CHECK(t.stepper().weights().at("generator.weight").data[7] == 2.5f);
    CHECK(t.source().labels.size() == 5);  // the sentence is kept across the switch of model
    std::filesystem::remove(path);
}

TEST_CASE("view state round-trips through JSON and survives a broken file", "[view_state]") {
    ViewState v;
    v.settings.korean = true;
    v.tab = View::masks;
    v.attention.layer = 3;
    v.attention.detail_open = true;
    v.settings.recent_files = {"/a.safetensors"};
    const ViewState back = ViewState::from_json(v.to_json());
    CHECK(back.settings.korean);
    CHECK(back.tab == View::masks);
    CHECK(back.attention.layer == 3);
    CHECK(back.attention.detail_open);
    CHECK(back.settings.recent_files == v.settings.recent_files);
    const ViewState broken = ViewState::from_json("{\"tab\": 7, \"layer\": \"x\", \"font_scale\": 99");
    CHECK(broken.tab == View::attention);
    const ViewState wrong_types = ViewState::from_json("{\"tab\": 7, \"layer\": \"x\", \"font_scale\": 99}");
    CHECK(wrong_types.attention.layer == 0);
    CHECK(wrong_types.settings.font_scale == 3.0f);
    remember_recent_file(v, "/b.safetensors");
    remember_recent_file(v, "/a.safetensors");
    CHECK(v.settings.recent_files == std::vector<std::string>{"/a.safetensors", "/b.safetensors"});
}

TEST_CASE("the attention view's family and stage are saved by name, and old numbers still read", "[view_state]") {
    ViewState v;
    v.attention.family = AttentionUse::cross;
    v.attention.stage = AttentionStage::k;
    const std::string text = v.to_json();
    CHECK_THAT(text, Catch::Contains("\"family\": \"cross\""));
    CHECK_THAT(text, Catch::Contains("\"stage\": \"k\""));
    const ViewState back = ViewState::from_json(text);
    CHECK(back.attention.family == AttentionUse::cross);
    CHECK(back.attention.stage == AttentionStage::k);
    // Before, both were numbers in the app's own order: stages scores, scaled, masked, weights, q, k, v, context.
    const ViewState old = ViewState::from_json(R"({"family": 1, "stage": 5, "mask_path": "masks.cross"})");
    CHECK(old.attention.family == AttentionUse::decoder_self);
    CHECK(old.attention.stage == AttentionStage::k);
    for (const char* odd : {R"({"family": 9, "stage": -1})", R"({"family": "sideways", "stage": "softmax"})",
                            R"({"family": [1], "stage": {"q": 1}})"}) {
        const ViewState d = ViewState::from_json(odd);
        CHECK(d.attention.family == ViewState{}.attention.family);
        CHECK(d.attention.stage == ViewState{}.attention.stage);
    }
}

TEST_CASE("launch options are parsed strictly", "[launch_options]") {
    auto o = parse_launch_options({"--screenshot", "x.png", "--view", "masks", "--frames", "3", "--size", "800x600"});
    REQUIRE(o);
    CHECK(*o->screenshot == "x.png");
    CHECK(*o->view == "masks");
    CHECK(o->frames == 3);
    CHECK(o->width == 800);
    CHECK_FALSE(parse_launch_options({"--view", "nope"}));
    CHECK_FALSE(parse_launch_options({"--frames", "-1"}));
    CHECK_FALSE(parse_launch_options({"--screenshot"}));
    CHECK_FALSE(parse_launch_options({"--model", "a", "--preset", "tiny"}));
    CHECK_FALSE(parse_launch_options({"--size", "big"}));
    CHECK_FALSE(parse_launch_options({"--bogus", "1"}));
}

TEST_CASE("a replaced model's trace never reuses a version number", "[session]") {
    Session s = english_korean();
    const uint64_t old_version = s.stepper().entry("logits")->version;
    RandomModelSpec spec;
    spec.seed = 9;
    REQUIRE(s.new_random_model(spec));
    CHECK(s.stepper().entry("src.embed")->version > old_version);
}

TEST_CASE("a random model can take any valid shape, and a bad shape is refused", "[session]") {
    Session s = english_korean();
    RandomModelSpec spec;
    spec.d_model = 32, spec.n_heads = 8, spec.n_layers = 3, spec.d_ff = 48, spec.seed = 2;
    REQUIRE(s.new_random_model(spec));
    const ModelConfig& c = s.stepper().config();
    CHECK((c.d_model == 32 && c.n_heads == 8 && c.n_encoder_layers == 3 && c.n_decoder_layers == 3 && c.d_ff == 48));
    CHECK(s.stepper().output("decoder.layers.2.cross_attn.weights")->dim(0) == 8);
    CHECK(s.source().labels.size() == 5);  // the sentence survives the new model
    spec.n_heads = 5;
    CHECK_FALSE(s.new_random_model(spec));
    CHECK(s.stepper().config().n_heads == 8);
    spec.use_preset("base");
    CHECK((spec.d_model == 512 && spec.n_heads == 8 && spec.n_layers == 6 && spec.d_ff == 2048));
}

TEST_CASE("commands on things that cannot take them fail cleanly", "[session]") {
    Session s = english_korean();
    CHECK_FALSE(s.toggle_head({AttentionUse::cross, 7}, 0));
    CHECK_THAT(s.error(), Catch::Contains("decoder.layers.7.cross_attn"));
    CHECK_FALSE(s.toggle_head({AttentionUse::cross, 0}, 9));
    s.run_to(0);
    CHECK_FALSE(s.toggle_mask_cell(AttentionUse::cross, 0, 0));
    CHECK_THAT(s.error(), Catch::Contains("masks.cross"));
    s.run_to(s.stepper().size());
    CHECK_FALSE(s.generate_next(true, std::nanf(""), 1));
    REQUIRE(s.set_tgt_ids(std::vector<int>(s.stepper().config().max_len, 4)));
    const size_t cursor = s.stepper().cursor();
    CHECK_FALSE(s.generate_next(false, 1.0f, 0));
    CHECK_THAT(s.error(), Catch::Contains("max_len"));
    CHECK(s.stepper().cursor() == cursor);
}

TEST_CASE("a new random model after a one-vocabulary model uses that vocabulary", "[session]") {
    Model m;
    m.config.arch = Arch::decoder_only;
    m.config.n_encoder_layers = 0;
    m.config.d_model = 16, m.config.n_heads = 2, m.config.d_ff = 32, m.config.max_len = 16;
    m.tgt_vocab = words({"a", "b"});
    m.config.tgt_vocab_size = m.config.src_vocab_size = m.tgt_vocab->size();
    m.weights = init_weights(m.config, 1);
    auto s = Session::from_model(m, "decoder only", "a b", "");
    if (!s) FAIL(s.error().message);
    CHECK_FALSE(s->toggle_mask_cell(AttentionUse::cross, 0, 0));  // no encoder, so no cross-attention
    CHECK_THAT(s->error(), Catch::Contains("no masks.cross"));
    REQUIRE(s->new_random_model(RandomModelSpec{}));
    CHECK(s->stepper().config().arch == Arch::encoder_decoder);
    CHECK(s->model().src_vocab->tokens() == m.tgt_vocab->tokens());
}
