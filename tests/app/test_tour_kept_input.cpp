// A model the learner opened that the tour keeps gets an input that shows something when its own would not: a
// Llama folder without a tokenizer, reading one id, gets twelve typed ids (not every head a 1x1 square); a Marian
// folder whose target is only its start token gets the source translated (not one cross-attention row). Ids the
// learner typed stay. The choice says which, for the card.
#include "tour.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kAssets = ATTNLAB_SOURCE_DIR "/assets";
const std::string kFixtures = ATTNLAB_SOURCE_DIR "/tests/golden/fixtures/";

int chapter_index(const TourRunner& tour, const std::string& id) {
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i)
        if (tour.chapters()[static_cast<size_t>(i)].id == id) return i;
    return -1;
}

}  // namespace

TEST_CASE("a kept Llama folder without a tokenizer reading one id gets typed ids, and typed ones stay") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const int gqa = chapter_index(tour, "grouped-query");
    REQUIRE(gqa >= 0);
    auto s = Session::from_file(kFixtures + "hf_llama", "", "", 1);
    REQUIRE(s);
    REQUIRE_FALSE(s->typed_ids_text().empty());  // it reads ids
    REQUIRE(s->stepper().inputs().tgt_ids.size() < 2);
    ViewState v;
    REQUIRE(tour.open(gqa, *s, v, kAssets));
    CHECK(tour.model_choice().kept);
    CHECK(tour.model_choice().input == TourModelChoice::Input::typed_ids);
    CHECK(tour.model_choice().n_typed_ids == 12);
    const std::vector<int>& ids = s->stepper().inputs().tgt_ids;
    CHECK(ids == tour_typed_ids(s->stepper().config().tgt_vocab_size));
    CHECK(ids.size() == 12);
    for (int id : ids) CHECK(id < s->stepper().config().tgt_vocab_size);

    // Reopened: the ids are the tour's, and the card still says so.
    REQUIRE(tour.open(gqa, *s, v, kAssets));
    CHECK(tour.model_choice().input == TourModelChoice::Input::typed_ids);

    // Ids of the learner's own stay, and nothing is said.
    REQUIRE(s->set_tgt_ids({3, 4, 5, 6}));
    REQUIRE(tour.open(gqa, *s, v, kAssets));
    CHECK(tour.model_choice().kept);
    CHECK(tour.model_choice().input == TourModelChoice::Input::as_opened);
    CHECK(s->stepper().inputs().tgt_ids == std::vector<int>{3, 4, 5, 6});
}

TEST_CASE("a kept Marian folder whose target is only its start token gets the source translated") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const int cross = chapter_index(tour, "cross-attention");
    REQUIRE(cross >= 0);
    auto s = Session::from_file(kFixtures + "hf_marian", "i like apples", "", 1);
    REQUIRE(s);
    REQUIRE(s->stepper().inputs().tgt_ids.size() < 2);
    ViewState v;
    REQUIRE(tour.open(cross, *s, v, kAssets));
    CHECK(tour.model_choice().kept);
    CHECK(tour.model_choice().input == TourModelChoice::Input::translated);
    CHECK(s->stepper().inputs().tgt_ids.size() >= 2);  // a cross-attention row per target token
    CHECK(s->stepper().inputs().tgt_ids.front() == s->stepper().config().sos_id);
}
