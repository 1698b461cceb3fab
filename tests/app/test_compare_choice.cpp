// The compare tool's choice of run B persists its switched-off heads as typed entries; an old,
// unknown or malformed entry is dropped on loading, never a crash.
#include "view_state.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("the compare tool's switched-off heads round-trip as typed entries", "[view_state]") {
    ViewState v;
    v.analysis.compare.other_model = false;
    v.analysis.compare.ablated = {
        {{AttentionUse::decoder_self, 1}, 2}, {{AttentionUse::cross, 0}, 3}, {{AttentionUse::encoder_self, 1}, 0}};
    v.analysis.compare.step = "decoder.layers.1.self_attn.weights";
    const std::string text = v.to_json();
    const auto saved = nlohmann::json::parse(text).at("analysis").at("compare").at("ablated");
    REQUIRE(saved.size() == 3);
    CHECK(saved[1] == nlohmann::json{{"use", "cross"}, {"layer", 0}, {"head", 3}});
    const ViewState back = ViewState::from_json(text);
    CHECK(back.analysis.compare.ablated == v.analysis.compare.ablated);
    CHECK(back.analysis.compare.step == v.analysis.compare.step);
}

TEST_CASE("old, unknown and malformed switched-off heads are dropped on loading", "[view_state]") {
    const ViewState v = ViewState::from_json(R"({"analysis": {"compare": {"ablated": [
        "decoder.layers.1.self_attn:2",
        {"use": "cross", "layer": 1, "head": 0},
        {"use": "sideways", "layer": 0, "head": 0},
        {"use": "decoder_self", "layer": -1, "head": 0},
        {"use": "decoder_self", "layer": 0},
        {"use": "decoder_self", "layer": "one", "head": 1},
        {"use": "cross", "layer": 1, "head": 0},
        7, null]}}})");
    const std::vector<AttentionHead> want = {{{AttentionUse::cross, 1}, 0}};
    CHECK(v.analysis.compare.ablated == want);
    CHECK(ViewState::from_json(R"({"analysis": {"compare": {"ablated": "decoder.layers.1.self_attn:2"}}})")
              .analysis.compare.ablated.empty());
}
