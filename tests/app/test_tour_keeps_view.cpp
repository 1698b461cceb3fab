// A chapter that asks the class to step on keeps its own view while they step (the residual stream of chapter 1,
// the FFN of chapter 13), and the other chapters let the views follow the steps as everywhere else.
#include "tour.h"

#include <catch2/catch.hpp>

#include <string>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("stepping keeps the view of a chapter whose task is to step on") {
    const std::string assets = ATTNLAB_SOURCE_DIR "/assets";
    TourRunner tour;
    REQUIRE(tour.load(assets));
    CHECK_FALSE(tour.keeps_view());  // no chapter open
    int stepping = 0;
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i) {
        const TourChapter& c = tour.chapters()[static_cast<size_t>(i)];
        INFO("chapter " << i + 1 << " " << c.id);
        auto s = Session::from_preset("tiny", 9, std::nullopt, std::nullopt, "abc");
        REQUIRE(s);
        ViewState v;
        REQUIRE(tour.open(i, *s, v, assets));
        CHECK(tour.keeps_view() == (c.task == TourTaskKind::step_past));
        if (c.id == "stacks" || c.id == "swiglu") CHECK(tour.keeps_view());
        stepping += tour.keeps_view() ? 1 : 0;
    }
    CHECK(stepping == 3);  // the stacks, RMSNorm and SwiGLU chapters
    ViewState after;
    tour.close(after);
    CHECK_FALSE(tour.keeps_view());
}
