// The view state as the settings file holds it: one struct per view, each declaring its fields once;
// every field round-trips, choices are saved by name, a malformed field keeps its default, and a file
// in the flat form of before still reads.
#include "forward/step_path.h"
#include "view_state.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// A view state whose every saved field differs from the default.
ViewState every_field_changed() {
    ViewState v;
    v.settings.korean = true;
    v.settings.dark_theme = false;
    v.settings.font_scale = 1.5f;
    v.settings.recent_files = {"/a.safetensors", "/b"};
    v.tab = View::analysis;
    v.attention = {AttentionUse::cross, 1, 2, true, true, AttentionStage::scaled, 3, 4, 6.0f, 0.25f, 0.75f, {}};
    v.attention.knockout = {true, true, true, 5, 2};
    v.positional.dims[0] = 2, v.positional.dims[1] = 9;
    v.positional.rope = {1, 2, 5, 1, true};
    v.positional.compare = {true, 1, 2};
    v.residual.token = 3;
    v.residual.contribution = true, v.residual.flow_token = 2, v.residual.flow_threshold = 0.1f;
    v.ffn.layer = 1, v.ffn.decoder = true, v.ffn.pre_activation = true, v.ffn.gated_part = FfnPart::up;
    v.output = {9, 0.5f, true, 7, 0.9f, 4.0f, {}, {}, {}};  // the animation is not saved
    v.output.why.open = true, v.output.why.diff = true;     // its tokens, position and selection are not saved
    v.output.patching = {true, "i like green apples", "heads", false, 1, 2};  // the clicked cell is not saved
    v.weights.name = "generator.weight";
    v.analysis.tool = AnalysisTool::circuits;
    v.analysis.head_stat = HeadStat::self;
    v.analysis.embedding_token = "cat";
    v.analysis.circuit.ov = true, v.analysis.circuit.encoder = true;
    v.analysis.circuit.layer = 1, v.analysis.circuit.head = 3, v.analysis.circuit.tokens = "a b";
    v.analysis.circuit.rope_offset = 3;
    v.analysis.compare.other_model = true, v.analysis.compare.other_path = "/m.safetensors";
    v.analysis.compare.ablated = {{{AttentionUse::decoder_self, 1}, 2}};
    v.analysis.compare.step = "decoder.layers.1.self_attn.weights";
    v.analysis.detectors = {20, 5, 7, DetectorScore::duplicate};
    v.stepper.steps_per_second = 12.0f;
    v.train = {TrainTarget::opened_model, "reverse", "base", 500, 3, 16, 2, 50, false, "/data/notes.txt",
               DataFileKind::token_ids, 32, 1e-3f};
    v.playground.experiment = true, v.playground.show_inputs = false;
    v.playground.spec = look_ahead_example();
    v.playground.preset = PlaygroundPreset::look_ahead;
    v.playground.focus_row = 2, v.playground.focus_col = 3;
    v.playground.random_seed = 5, v.playground.experiment_keys = 32, v.playground.experiment_seed = 6;
    return v;
}

nlohmann::json saved(const ViewState& v) { return nlohmann::json::parse(v.to_json()); }

}  // namespace

TEST_CASE("every saved field of every view's state round-trips, each under its view", "[view_state]") {
    const nlohmann::json defaults = saved(ViewState{}).flatten();
    const nlohmann::json changed = saved(every_field_changed()).flatten();
    for (const char* section : {"settings", "attention", "positional", "residual", "ffn", "output", "weights",
                                "analysis", "stepper", "train", "playground"}) {
        INFO(section);
        bool found = false;
        for (const auto& [key, value] : defaults.items())
            found = found || key.rfind(std::string("/") + section, 0) == 0;
        CHECK(found);
    }
    for (const auto& [key, value] : defaults.items()) {
        if (key.rfind("/playground/spec", 0) == 0) continue;  // matrices: test_playground_state.cpp
        INFO(key);
        if (value.is_null()) {  // an empty list (flatten() writes it as null): the changed one has items
            bool has_items = false;
            for (const auto& item : changed.items()) has_items = has_items || item.key().rfind(key + "/0", 0) == 0;
            CHECK(has_items);
            continue;
        }
        REQUIRE(changed.contains(key));
        CHECK(changed[key] != value);  // the helper above changes every field, so the round trip covers each
    }
    const ViewState back = ViewState::from_json(every_field_changed().to_json());
    CHECK(saved(back).flatten() == changed);
    CHECK(back.attention.stage == AttentionStage::scaled);
    CHECK(back.attention.cell_col == 4);
    CHECK(back.positional.dims[1] == 9);
    CHECK(back.output.top_p == 0.9f);
    CHECK(back.analysis.tool == AnalysisTool::circuits);
    CHECK(back.analysis.compare.ablated == every_field_changed().analysis.compare.ablated);
    CHECK(back.train.preset == "base");
    CHECK(back.playground.spec.mask == look_ahead_example().mask);
}

TEST_CASE("what is not saved stays out of the file", "[view_state]") {
    ViewState v;
    v.settings.presentation = v.settings.classroom = v.settings.predict = true;
    v.ffn.zoom_first = 40;
    v.weights.filter = "bias";
    v.analysis.lens_first_position = 3;
    v.stepper.playing = v.stepper.hidden = true;
    v.random_model.d_model = 512;
    CHECK(v.to_json() == ViewState{}.to_json());
}

TEST_CASE("choices are saved by name and read back by name only", "[view_state]") {
    ViewState v;
    v.tab = View::masks;
    v.analysis.tool = AnalysisTool::head_summary;
    v.analysis.head_stat = HeadStat::previous;
    v.attention.family = AttentionUse::decoder_self;
    v.attention.stage = AttentionStage::context;
    v.playground.preset = PlaygroundPreset::random;
    const nlohmann::json j = saved(v);
    CHECK(j["tab"] == "masks");
    CHECK(j["analysis"]["tool"] == "head_summary");
    CHECK(j["analysis"]["head_stat"] == "previous");
    CHECK(j["attention"]["family"] == "decoder_self");
    CHECK(j["attention"]["stage"] == "context");
    CHECK(j["playground"]["preset"] == "random");
    // An unknown name, or a number that was never a choice, keeps the default.
    const ViewState odd = ViewState::from_json(
        R"({"analysis": {"tool": 9, "head_stat": "loudest"}, "tab": "kitchen", "playground": {"preset": "psychic"}})");
    CHECK(odd.analysis.tool == AnalysisTool::logit_lens);
    CHECK(odd.analysis.head_stat == HeadStat::entropy);
    CHECK(odd.tab == View::attention);
    CHECK(odd.playground.preset == PlaygroundPreset::notes);
}

TEST_CASE("the attention names are core's step-path names", "[view_state]") {
    for (const auto& [use, name] : EnumNames<AttentionUse>::list) CHECK(std::string(name) == to_string(use));
    for (const auto& [stage, name] : EnumNames<AttentionStage>::list) CHECK(std::string(name) == to_string(stage));
    CHECK(std::size(EnumNames<AttentionStage>::list) == static_cast<size_t>(AttentionStage::out) + 1);
    CHECK(std::size(EnumNames<View>::list) == std::size(kAllViews));
}

TEST_CASE("a malformed field keeps its default, and its neighbours still read", "[view_state]") {
    const ViewState v = ViewState::from_json(R"({
        "settings": {"korean": 1, "dark_theme": false, "font_scale": 99, "recent_files": ["/a", 3]},
        "attention": {"layer": "two", "head": 3, "cell_row": 1.5, "cell_col": 99999999999},
        "positional": {"dims": [1, 2, 3]},
        "residual": "token",
        "ffn": {"layer": -1, "decoder": "yes", "pre_activation": true},
        "output": {"temperature": "hot", "top_k": 9, "top_p": null},
        "weights": {"name": 7},
        "analysis": {"tool": "circuits", "circuit": {"layer": [1], "head": 2}, "compare": 5},
        "stepper": {"steps_per_second": 1e6},
        "train": {"task": "chess", "steps": 70},
        "playground": {"experiment_keys": 1, "experiment": "on"}})");
    const ViewState d;
    CHECK(v.settings.korean == d.settings.korean);  // 1 is not a bool
    CHECK_FALSE(v.settings.dark_theme);
    CHECK(v.settings.font_scale == 3.0f);  // clamped
    CHECK(v.settings.recent_files.empty());
    CHECK(v.attention.layer == 0);
    CHECK(v.attention.head == 3);
    CHECK(v.attention.cell_row == d.attention.cell_row);  // not a whole number
    CHECK(v.attention.cell_col == d.attention.cell_col);  // beyond an int
    CHECK(v.positional.dims[0] == d.positional.dims[0]);
    CHECK(v.positional.dims[1] == d.positional.dims[1]);
    CHECK(v.residual.token == 0);
    CHECK(v.ffn.layer == -1);  // well formed; the panel clamps it to the model
    CHECK(v.ffn.decoder == d.ffn.decoder);
    CHECK(v.ffn.pre_activation);
    CHECK(v.output.temperature == d.output.temperature);
    CHECK(v.output.top_k == 9);
    CHECK(v.output.top_p == d.output.top_p);
    CHECK(v.weights.name.empty());
    CHECK(v.analysis.tool == AnalysisTool::circuits);
    CHECK(v.analysis.circuit.layer == 0);
    CHECK(v.analysis.circuit.head == 2);
    CHECK(v.stepper.steps_per_second == 30.0f);  // clamped to the slider's range
    CHECK(v.train.task == d.train.task);
    CHECK(v.train.steps == 70);
    CHECK(v.playground.experiment_keys == 2);
    CHECK(v.playground.experiment == d.playground.experiment);
    for (const char* broken : {"", "[1, 2]", "{\"settings\": {\"korean\": true}", "null", "\"text\""})
        CHECK(ViewState::from_json(broken).to_json() == d.to_json());
}

TEST_CASE("a settings file in the flat form of before still reads", "[view_state]") {
    // As the app wrote it before the view state was split: every field at the top, some choices numbered.
    const ViewState v = ViewState::from_json(R"({
        "korean": true, "dark_theme": false, "font_scale": 1.25, "recent_files": ["/r.safetensors"],
        "tab": "ffn", "family": 2, "layer": 1, "head": 3, "line_view": true, "detail_open": true,
        "cell": [2, 1], "stage": 5, "token": 4, "pe_dims": [3, 8], "ffn_layer": 1,
        "weight_name": "encoder.layers.0.linear1.weight", "ffn_decoder": true, "ffn_pre_activation": true,
        "top_k": 7, "analysis_tool": 1,
        "circuit": {"ov": true, "encoder": false, "layer": 1, "head": 2, "tokens": "x y"},
        "compare": {"other_model": false, "other_path": "", "ablated": [{"use": "cross", "layer": 0, "head": 1}],
                    "step": "decoder.layers.0.cross_attn.weights"},
        "temperature": 0.75, "sample": true, "sample_seed": 4, "top_p": 0.8, "steps_per_second": 8,
        "train": {"task": "reverse", "preset": "tiny", "steps": 100, "seed": 2, "batch_size": 32, "threads": 1,
                  "eval_every": 10, "log_loss": false},
        "playground": {"experiment": false, "show_inputs": true, "input": "qkv", "scale": false, "n_tokens": 3,
                       "d_model": 2, "d_k": 2, "preset": 2, "focus": [1, 2], "random_seed": 3,
                       "experiment_keys": 12, "experiment_seed": 5}})");
    CHECK(v.settings.korean);
    CHECK_FALSE(v.settings.dark_theme);
    CHECK(v.settings.font_scale == 1.25f);
    CHECK(v.settings.recent_files == std::vector<std::string>{"/r.safetensors"});
    CHECK(v.tab == View::ffn);
    CHECK(v.attention.family == AttentionUse::cross);
    CHECK(v.attention.layer == 1);
    CHECK(v.attention.head == 3);
    CHECK(v.attention.line_view);
    CHECK(v.attention.detail_open);
    CHECK(v.attention.cell_row == 2);
    CHECK(v.attention.cell_col == 1);
    CHECK(v.attention.stage == AttentionStage::k);  // stages were numbered scores, scaled, masked, weights, q, k, …
    CHECK(v.residual.token == 4);
    CHECK(v.positional.dims[0] == 3);
    CHECK(v.positional.dims[1] == 8);
    CHECK(v.ffn.layer == 1);
    CHECK(v.ffn.decoder);
    CHECK(v.ffn.pre_activation);
    CHECK(v.weights.name == "encoder.layers.0.linear1.weight");
    CHECK(v.output.top_k == 7);
    CHECK(v.output.temperature == 0.75f);
    CHECK(v.output.sample);
    CHECK(v.output.sample_seed == 4);
    CHECK(v.output.top_p == 0.8f);
    CHECK(v.analysis.tool == AnalysisTool::head_summary);
    CHECK(v.analysis.circuit.ov);
    CHECK(v.analysis.circuit.tokens == "x y");
    CHECK(v.analysis.compare.ablated == std::vector<AttentionHead>{{{AttentionUse::cross, 0}, 1}});
    CHECK(v.analysis.compare.step == "decoder.layers.0.cross_attn.weights");
    CHECK(v.stepper.steps_per_second == 8.0f);
    CHECK(v.train.task == "reverse");
    CHECK(v.train.batch_size == 32);
    CHECK_FALSE(v.train.log_loss);
    CHECK(v.playground.spec.input == HandInput::qkv);
    CHECK_FALSE(v.playground.spec.scale);
    CHECK(v.playground.spec.n_tokens() == 3);
    CHECK(v.playground.preset == PlaygroundPreset::look_ahead);
    CHECK(v.playground.focus_row == 1);
    CHECK(v.playground.focus_col == 2);
    CHECK(v.playground.experiment_keys == 12);
    // Read once, it is written in today's form, with nothing left at the top but the sections and the tab.
    const nlohmann::json today = saved(v);
    for (const auto& [key, value] : today.items()) CHECK((value.is_object() || key == "tab"));
    CHECK(saved(ViewState::from_json(v.to_json())) == saved(v));
}

TEST_CASE("a key of the old form does not override the same field in today's form", "[view_state]") {
    const ViewState v = ViewState::from_json(R"({"layer": 1, "attention": {"layer": 2}, "analysis_tool": 4})");
    CHECK(v.attention.layer == 2);
    CHECK(v.analysis.tool == AnalysisTool::compare);
}
