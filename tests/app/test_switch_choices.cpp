// The Model panel's norm and activation switches (app/model/switch_choices.h): each model is offered its own value
// and only the others validate_config accepts, and each offered value opens a session that runs.
#include "session.h"
#include "switch_choices.h"

#include "config.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

ModelConfig fixture_config(const std::string& name) {
    auto loaded = open_model(kFixtures + name);
    if (!loaded) FAIL(loaded.error().message);
    return loaded->model.config;
}

}  // namespace

TEST_CASE("the norm switch offers Gemma and BLOOM pre-norm alone, the paper, T5 and Llama both placements",
          "[switch_choices]") {
    auto paper = preset_config("tiny", 8, 8);
    REQUIRE(paper);
    CHECK(norm_placement_choices(*paper) == std::vector<bool>{false, true});
    const std::pair<const char*, std::vector<bool>> expected[] = {{"hf_t5", {false, true}},
                                                                  {"hf_llama", {false, true}},
                                                                  {"hf_gemma2", {true}},
                                                                  {"hf_gemma3", {true}},
                                                                  {"hf_bloom", {true}}};
    for (const auto& [fixture, choices] : expected) {
        INFO(fixture);
        CHECK(norm_placement_choices(fixture_config(fixture)) == choices);
    }
}

TEST_CASE("every activation offered is one the core accepts, the model's own among them", "[switch_choices]") {
    for (const char* fixture : {"hf_t5", "hf_flan_t5", "hf_gemma2", "hf_bloom", "hf_llama"}) {
        INFO(fixture);
        const ModelConfig own = fixture_config(fixture);
        const std::vector<Activation> choices = activation_choices(own);
        CHECK(std::find(choices.begin(), choices.end(), own.activation) != choices.end());
        for (const Activation a : choices) {
            ModelConfig tried = own;
            tried.activation = a;
            CHECK(validate_config(tried));
        }
    }
}

TEST_CASE("T5 switched to post-norm runs and comes back", "[switch_choices]") {
    auto s = Session::from_file(kFixtures + "hf_t5", "the cat sat", "the cat", 1, "1,17,5,40,22");
    if (!s) FAIL(s.error().message);
    const ModelConfig own = s->stepper().config();
    ModelConfig post = own;
    post.norm_first = false;
    REQUIRE(s->set_config(post));
    s->run_to(s->stepper().size());
    CHECK(s->stepper().first_non_finite_step() == std::nullopt);
    REQUIRE(s->set_config(own));
    CHECK(s->stepper().config().norm_first);
}
