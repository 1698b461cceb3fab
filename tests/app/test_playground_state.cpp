// The playground's state in ViewState: it survives the settings file, and a damaged file
// still gives a playground that computes.
#include "view_state.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("the playground round-trips through the settings JSON", "[view_state][playground]") {
    ViewState v;
    v.tab = View::playground;
    PlaygroundState& p = v.playground;
    p.spec = look_ahead_example();
    p.spec.mask(2, 1) = 0.0f;
    p.spec.q(1, 3) = -0.75f;
    p.spec.scale = false;
    p.preset = PlaygroundPreset::none;
    p.focus_row = 2, p.focus_col = 0;
    p.experiment = true;
    p.show_inputs = false;
    p.experiment_keys = 16;
    p.experiment_seed = 9;
    p.random_seed = 4;
    const ViewState back = ViewState::from_json(v.to_json());
    CHECK(back.tab == View::playground);
    const PlaygroundState& b = back.playground;
    CHECK(b.spec.input == HandInput::qkv);
    CHECK_FALSE(b.spec.scale);
    CHECK(b.spec.q == p.spec.q);
    CHECK(b.spec.k == p.spec.k);
    CHECK(b.spec.v == p.spec.v);
    CHECK(b.spec.x == p.spec.x);
    CHECK(b.spec.w_v == p.spec.w_v);
    CHECK(b.spec.mask == p.spec.mask);
    CHECK(b.preset == PlaygroundPreset::none);
    CHECK(b.focus_row == 2);
    CHECK(b.focus_col == 0);
    CHECK(b.experiment);
    CHECK_FALSE(b.show_inputs);
    CHECK(b.experiment_keys == 16);
    CHECK(b.experiment_seed == 9);
    CHECK(b.random_seed == 4);
}

TEST_CASE("a partial or damaged playground in the settings still computes", "[view_state][playground]") {
    const ViewState partial = ViewState::from_json(R"({"tab": "playground", "playground": {"experiment": true}})");
    CHECK(partial.tab == View::playground);
    CHECK(partial.playground.experiment);
    CHECK(partial.playground.spec.x == notes_worked_example().x);  // the rest keeps its defaults

    const ViewState damaged = ViewState::from_json(R"({"playground": {"spec": {
        "n_tokens": 99, "d_model": -3, "d_k": "wide", "input": "telepathy",
        "x": [[1e9, 2, 3], [4, 5, 6]], "w_q": [[1, 2]], "mask": "all"}, "preset": "psychic", "experiment_keys": 100000}})");
    const HandSpec& s = damaged.playground.spec;
    CHECK(s.n_tokens() == 4);  // clamped sizes
    CHECK(s.d_model() == 2);
    CHECK(s.d_k() == 2);
    CHECK(s.input == HandInput::projected);
    CHECK(s.x(0, 0) == 1.0f);  // a matrix of the wrong shape is ignored, the notes' numbers stay
    CHECK(s.mask.rows() == 4);
    CHECK(damaged.playground.preset == PlaygroundPreset::notes);  // an unknown preset keeps the default
    CHECK(damaged.playground.experiment_keys == 64);
    CHECK(hand_attention(s));

    const ViewState huge = ViewState::from_json(R"({"playground": {"spec": {"x": [[1e9, 0, -1e9], [0, 1, 0]]}}})");
    CHECK(huge.playground.spec.x(0, 0) == kHandMaxAbs);
    CHECK(huge.playground.spec.x(0, 2) == -kHandMaxAbs);
    CHECK(hand_attention(huge.playground.spec));
}

TEST_CASE("the playground is a view with its own id", "[view_state][playground]") {
    View v = View::input;
    REQUIRE(view_from_id("playground", v));
    CHECK(v == View::playground);
    CHECK(std::string(view_id(View::playground)) == "playground");
}
