// The multi-head chapter: switching off the head its card names moves the Output view's first prediction (the
// last position's) by a third of its probability or more, and the tour says by how much against the setup, so a
// class sees the effect in numbers; another head, a changed input or no head off say nothing. The last position's
// probabilities are read as one row, so a checkpoint trace does not make all of them.
#include "tour.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kAssets = ATTNLAB_SOURCE_DIR "/assets";

int chapter_index(const TourRunner& tour, const std::string& id) {
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i)
        if (tour.chapters()[static_cast<size_t>(i)].id == id) return i;
    return -1;
}

}  // namespace

TEST_CASE("switching off the multi-head chapter's head changes the first prediction, and the tour says how much") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const int index = chapter_index(tour, "multi-head");
    REQUIRE(index >= 0);
    const TourChapter& c = tour.chapters()[static_cast<size_t>(index)];
    REQUIRE(c.task == TourTaskKind::ablate_head);
    auto s = Session::from_preset("tiny", 9, std::nullopt, std::nullopt, "abc");
    REQUIRE(s);
    ViewState v;
    REQUIRE(tour.open(index, *s, v, kAssets));
    CHECK_FALSE(tour.head_off_change(*s));  // no head off yet

    // The head the card names: the chapter's layer and head of the attention its grid shows.
    REQUIRE(s->toggle_head({v.attention.family, c.layer}, c.head));
    s->run_to(s->stepper().size());
    const auto change = tour.head_off_change(*s);
    REQUIRE(change);
    INFO("token " << change->token << ": " << change->before << " -> " << change->after);
    CHECK(change->before > 0.5f);                  // the setup's prediction is a clear one
    CHECK(change->before - change->after > 0.33f);  // and loses a third of the mass or more
    CHECK(change->leader_p >= change->after);

    // Back on: the same prediction as the setup's, so nothing to say.
    REQUIRE(s->toggle_head({v.attention.family, c.layer}, c.head));
    s->run_to(s->stepper().size());
    CHECK_FALSE(tour.head_off_change(*s));

    // A head off on another input is not compared with the setup's prediction.
    REQUIRE(s->toggle_head({v.attention.family, c.layer}, c.head));
    REQUIRE(s->set_src_text("we eat sweet bread"));
    s->run_to(s->stepper().size());
    CHECK_FALSE(tour.head_off_change(*s));
}

TEST_CASE("a prediction change names the setup's token, its p before and after, and the token that leads now") {
    const auto same = prediction_change({0.1f, 0.7f, 0.2f}, {0.1f, 0.7f, 0.2f});
    REQUIRE(same);
    CHECK(same->token == 1);
    CHECK(same->leader == 1);
    CHECK(same->before == same->after);
    const auto flipped = prediction_change({0.1f, 0.7f, 0.2f}, {0.5f, 0.3f, 0.2f});
    REQUIRE(flipped);
    CHECK(flipped->token == 1);
    CHECK(flipped->before == 0.7f);
    CHECK(flipped->after == 0.3f);
    CHECK(flipped->leader == 0);
    CHECK(flipped->leader_p == 0.5f);
    CHECK_FALSE(prediction_change({}, {0.5f, 0.5f}));
    CHECK_FALSE(prediction_change({0.5f, 0.5f}, {1.0f}));
}

TEST_CASE("the tour reads the last position's probabilities as one row, the same numbers whatever the trace keeps") {
    auto s = Session::from_preset("tiny", 9, std::nullopt, std::nullopt, "abc");
    REQUIRE(s);
    s->run_to(s->stepper().size());
    const StepId probs_id = StepId::head(StepKind::probs, s->stepper().config());
    const Tensor* probs = s->stepper().output(probs_id);  // (N, V)
    REQUIRE(probs);
    const int64_t N = probs->dim(0), V = probs->dim(1);
    const std::vector<float> want(probs->data.begin() + (N - 1) * V, probs->data.end());
    CHECK(last_row_probs(s->stepper()) == want);

    // The same model and inputs in a trace of checkpoints, whose probabilities are made when a view asks.
    auto checkpoints = Stepper::create(s->stepper().config(), s->stepper().weights(), s->stepper().inputs());
    REQUIRE(checkpoints);
    checkpoints->set_trace_keep(TraceKeep::checkpoints);
    checkpoints->run_all();
    REQUIRE(checkpoints->run_facts(probs_id)->value.empty());  // not held
    const int64_t held = checkpoints->held_floats();
    CHECK(last_row_probs(*checkpoints) == want);
    CHECK(checkpoints->held_floats() == held);  // made one row, and holds nothing more
}
