// Opening another model keeps the user's prompt (README, "the user's sentence stays when the new model can
// read it"): for models without a vocabulary the prompt is the ids typed, kept when every id is within the new
// model's vocabulary, whether the model opens in place or on the worker the window uses.
#include "background_open.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kFixtures = ATTNLAB_SOURCE_DIR "/tests/golden/fixtures";

Session opened(const std::string& name) {
    auto s = Session::from_file(kFixtures + "/" + name, "", "", 1);
    if (!s) FAIL(s.error().message);
    return std::move(*s);
}

Result<Session> wait_for(BackgroundOpen& open) {
    for (int frame = 0; frame < 6000; ++frame) {
        if (auto done = open.take()) return std::move(*done);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("the open did not finish within a minute");
    return Error{"unreachable"};
}

}  // namespace

TEST_CASE("an id prompt typed on a model without a vocabulary stays when another such model opens", "[app][open][needs_threads]") {
    const std::vector<int> typed = {1, 5, 9, 13, 7, 21, 3, 30, 11, 4};  // all under V = 50
    Session llama = opened("hf_llama");
    REQUIRE_FALSE(llama.model().tgt_vocab);
    REQUIRE(llama.set_tgt_ids(typed));
    CHECK(llama.typed_ids_text() == "1,5,9,13,7,21,3,30,11,4");

    SECTION("in place") {
        REQUIRE(llama.open_model_file(kFixtures + "/hf_qwen3"));
        CHECK(llama.stepper().inputs().tgt_ids == typed);
    }
    SECTION("on the worker") {
        BackgroundOpen open;
        REQUIRE(open.start(kFixtures + "/hf_mistral", llama));
        auto mistral = wait_for(open);
        REQUIRE(mistral);
        CHECK(mistral->stepper().inputs().tgt_ids == typed);
    }
}

TEST_CASE("ids outside the new model's vocabulary give way to the model's own start", "[app][open]") {
    const std::vector<int> fresh_start = opened("hf_qwen3").stepper().inputs().tgt_ids;
    auto qwen3 = Session::from_file(kFixtures + "/hf_qwen3", "", "", 1, "1,5,4000");  // V = 50
    REQUIRE(qwen3);
    CHECK(qwen3->stepper().inputs().tgt_ids == fresh_start);
}

TEST_CASE("a model with a vocabulary has no typed ids to keep: its sentence is its text", "[app][open]") {
    auto en_ko = Session::from_file(ATTNLAB_SOURCE_DIR "/assets/models/en-ko.safetensors", "i like red apples", "", 1);
    REQUIRE(en_ko);
    CHECK(en_ko->typed_ids_text().empty());
}
