// The Model panel's positions switch (app/model/position_choices.h): each family is offered its own scheme and
// the others the core runs for it, and switching to each of them and back works on the open model.
#include "position_choices.h"
#include "session.h"

#include "config.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

// T5 reads text through its spiece.model; the BLOOM fixture has no tokenizer and reads ids.
Session fixture_session(const std::string& name) {
    auto s = Session::from_file(kFixtures + name, "the cat sat", "the cat", 1, "1,17,5,40,22");
    if (!s) FAIL(s.error().message);
    return std::move(*s);
}

}  // namespace

TEST_CASE("the positions switch offers a model its own scheme and those the core runs for its family",
          "[position_choices]") {
    using P = Positional;
    auto paper = preset_config("tiny", 8, 8);
    REQUIRE(paper);
    CHECK(position_choices(*paper) == std::vector<P>{P::sinusoidal, P::learned, P::none});  // the paper's model
    const std::pair<const char*, std::vector<P>> expected[] = {
        {"hf_t5", {P::relative_buckets, P::none}}, {"hf_bloom", {P::alibi, P::none}},
        {"hf_llama", {P::rotary, P::none}},        {"hf_gemma3", {P::rotary}},
        {"hf_marian", {P::sinusoidal, P::none}},   {"hf_gpt2", {P::sinusoidal, P::learned, P::none}}};
    for (const auto& [fixture, choices] : expected) {
        INFO(fixture);
        auto loaded = open_model(kFixtures + fixture);
        if (!loaded) FAIL(loaded.error().message);
        CHECK(position_choices(loaded->model.config) == choices);
    }
}

TEST_CASE("T5's buckets and BLOOM's ALiBi switch off and back on: the bias step goes and returns",
          "[position_choices]") {
    for (const char* fixture : {"hf_t5", "hf_bloom"}) {
        INFO(fixture);
        Session s = fixture_session(fixture);
        const ModelConfig own = s.stepper().config();
        const std::string bias = own.arch == Arch::encoder_decoder ? "encoder.position_bias" : "decoder.position_bias";
        REQUIRE(s.stepper().find(bias));
        CHECK(s.stepper().inputs().tgt_ids.size() >= 3);  // the input was read: the bias has rows to run
        ModelConfig off = own;
        off.positional = Positional::none;
        REQUIRE(s.set_config(off));
        CHECK_FALSE(s.stepper().find(bias));
        s.run_to(s.stepper().size());
        CHECK(s.stepper().first_non_finite_step() == std::nullopt);
        REQUIRE(s.set_config(own));
        CHECK(s.stepper().find(bias));
        CHECK(s.stepper().config() == s.model().config);
    }
}
