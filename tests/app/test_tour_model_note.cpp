// A model the learner opened that a chapter cannot run on (a GPT-2 folder in the RoPE chapter) gives way to the
// tour's own model, and the chapter knows what it lacked, for its card to say so.
#include "tour.h"

#include <catch2/catch.hpp>

#include <string>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("a GPT-2 folder gives way to the tour's model in the RoPE chapter, which knows it lacked RoPE") {
    const std::string assets = ATTNLAB_SOURCE_DIR "/assets";
    TourRunner tour;
    REQUIRE(tour.load(assets));
    int rope = -1;
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i)
        if (tour.chapters()[static_cast<size_t>(i)].id == "rope") rope = i;
    REQUIRE(rope >= 0);
    auto s = Session::from_file(ATTNLAB_SOURCE_DIR "/tests/golden/fixtures/hf_gpt2", "hello world", "", 1);
    REQUIRE(s);
    ViewState v;
    REQUIRE(tour.open(rope, *s, v, assets));
    CHECK(s->model_name() == llama_tiny_name());
    CHECK_FALSE(tour.model_choice().kept);
    REQUIRE(tour.model_choice().missing);
    CHECK(*tour.model_choice().missing == TourNeed::rotary);  // GPT-2 is decoder-only, with learned positions
}
