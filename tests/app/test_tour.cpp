// The guided tour without a display: every bundled chapter sets the app up (the bundled model,
// its sentence, its view and step), its task is not done on arrival, and doing it is noticed.
#include "tour.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kAssets = ATTNLAB_SOURCE_DIR "/assets";

// Does what the chapter asks, as the learner would through the views.
void do_the_task(const TourChapter& c, Session& s, ViewState& v) {
    switch (c.task) {
        case TourTaskKind::step_past: s.run_to(*s.stepper().find(c.task_step) + 1); break;
        case TourTaskKind::edit_source: REQUIRE(s.set_src_text("we eat sweet bread")); break;
        case TourTaskKind::toggle_mask_cell: REQUIRE(s.toggle_mask_cell(AttentionUse::decoder_self, 0, 1)); break;
        case TourTaskKind::ablate_head: REQUIRE(s.toggle_head({AttentionUse::encoder_self, 0}, 1)); break;
        case TourTaskKind::change_temperature: v.output.temperature = 0.5f; break;
        case TourTaskKind::change_pe_dims: v.positional.dims[1] += 2; break;
        case TourTaskKind::change_experiment_keys: v.playground.experiment_keys = 32; break;
    }
}

Session some_other_model() {
    auto s = Session::from_preset("tiny", 9, std::nullopt, std::nullopt, "abc");
    REQUIRE(s);
    return std::move(*s);
}

}  // namespace

TEST_CASE("every tour chapter sets the app up, and notices its task done") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    REQUIRE(tour.chapters().size() == 7);
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i) {
        const TourChapter& c = tour.chapters()[static_cast<size_t>(i)];
        INFO("chapter " << i + 1 << " " << c.id);
        Session s = some_other_model();
        ViewState v;
        v.tab = View::weights;
        auto st = tour.open(i, s, v, kAssets);
        INFO((st ? "" : st.error().message));
        REQUIRE(st);
        CHECK(tour.current() == i);
        CHECK(s.model_name().find(c.model) != std::string::npos);
        CHECK(s.src_text() == c.src);
        CHECK(std::string(view_id(v.tab)) == c.view);
        if (!c.step.empty())
            CHECK(s.stepper().cursor() == *s.stepper().find(c.step) + 1);
        else
            CHECK(s.stepper().cursor() == s.stepper().size());
        CHECK(v.playground.experiment == c.playground_experiment);
        CHECK_FALSE(tour.task_done(s, v));
        do_the_task(c, s, v);
        CHECK(tour.task_done(s, v));
    }
}

TEST_CASE("opening a chapter undoes the edits of the one before") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    REQUIRE(tour.open(2, s, v, kAssets));  // multi-head attention
    REQUIRE(s.toggle_head({AttentionUse::encoder_self, 0}, 1));
    CHECK(tour.task_done(s, v));
    REQUIRE(tour.open(2, s, v, kAssets));
    CHECK(s.stepper().inputs().ablated_heads.empty());
    CHECK_FALSE(tour.task_done(s, v));
}

TEST_CASE("in predict mode a chapter opens with its view covered") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    v.settings.predict = true;
    REQUIRE(tour.open(0, s, v, kAssets));
    CHECK(v.stepper.hidden);
    v.settings.predict = false;
    REQUIRE(tour.open(1, s, v, kAssets));
    CHECK_FALSE(v.stepper.hidden);
}

TEST_CASE("a chapter that cannot be set up closes the tour with a one-line reason") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    auto past_end = tour.open(99, s, v, kAssets);
    REQUIRE_FALSE(past_end);
    CHECK(past_end.error().message == "the tour has chapters 1 to 7");
    CHECK_FALSE(tour.active());
    // The bundled model is missing from this assets folder: the chapter names itself and the file.
    auto missing = tour.open(0, s, v, ATTNLAB_SOURCE_DIR "/tests");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.rfind("tour chapter \"stacks\": ", 0) == 0);
    CHECK(missing.error().message.find("en-ko.safetensors") != std::string::npos);
    CHECK(missing.error().message.find('\n') == std::string::npos);
    CHECK_FALSE(tour.active());
}

TEST_CASE("ending the tour ends predict mode, so no later step is covered unannounced") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    v.settings.predict = true;
    REQUIRE(tour.open(0, s, v, kAssets));
    REQUIRE(v.stepper.hidden);
    tour.close(v);
    CHECK_FALSE(tour.active());
    CHECK_FALSE(v.settings.predict);
    CHECK_FALSE(v.stepper.hidden);
}

TEST_CASE("the masks chapter shows padding: its sentences end in <pad>, and every mask blocks those keys") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const auto masks = std::find_if(tour.chapters().begin(), tour.chapters().end(),
                                    [](const TourChapter& c) { return c.task == TourTaskKind::toggle_mask_cell; });
    REQUIRE(masks != tour.chapters().end());
    REQUIRE(masks->src_padding > 0);
    REQUIRE(masks->tgt_padding > 0);
    Session s = some_other_model();
    ViewState v;
    REQUIRE(tour.open(static_cast<int>(masks - tour.chapters().begin()), s, v, kAssets));
    const int pad = s.stepper().config().pad_id;
    const auto& src = s.stepper().inputs().src_ids;  // (S,)
    const auto& tgt = s.stepper().inputs().tgt_ids;  // (T,)
    REQUIRE(static_cast<int>(src.size()) > masks->src_padding);
    CHECK(std::count(src.end() - masks->src_padding, src.end(), pad) == masks->src_padding);
    CHECK(std::count(tgt.end() - masks->tgt_padding, tgt.end(), pad) == masks->tgt_padding);
    // The padded keys are blocked for every query: their columns of the encoder's and decoder's masks are 0.
    for (auto [use, n_keys, padding] : {std::tuple{AttentionUse::encoder_self, src.size(), masks->src_padding},
                                        std::tuple{AttentionUse::decoder_self, tgt.size(), masks->tgt_padding}}) {
        const Tensor* mask = s.stepper().output(StepId::mask_of(use));  // (N, N)
        REQUIRE(mask);
        const ConstMatMap m = mask->matrix();
        for (size_t k = n_keys - static_cast<size_t>(padding); k < n_keys; ++k)
            CHECK(m.col(static_cast<Eigen::Index>(k)).maxCoeff() == 0.0f);
        CHECK(m.col(0).maxCoeff() == 1.0f);  // a real token stays visible
    }
}
