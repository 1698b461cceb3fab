// A tour chapter's "watch": the widgets its task says to look at beside the one it uses, read from tour.json
// (the headless --check-tour-target wants them on screen with it); the bundled chapters that need them name them.
#include "teach/tour.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace attnlab;

namespace {

std::string tour_with(const std::string& extra) {
    const std::string text = R"({"title": "t", "look": "l", "task": "k", "done": "d"})";
    return R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "attention", )"
           R"("task": "edit_source", "en": )" +
           text + R"(, "ko": )" + text + extra + "}]}";
}

}  // namespace

TEST_CASE("a chapter's watched widgets parse in order, and a bad list is refused in one line") {
    auto ok = parse_tour(tour_with(R"(, "watch": ["rope_pairs", "rope_score"])"), "tour.json");
    REQUIRE(ok);
    CHECK(ok->front().watch == std::vector<TourWatch>{TourWatch::rope_pairs, TourWatch::rope_score});
    auto none = parse_tour(tour_with(""), "tour.json");
    REQUIRE(none);
    CHECK(none->front().watch.empty());
    for (const char* bad : {R"(, "watch": ["the moon"])", R"(, "watch": "rope_pairs")", R"(, "watch": [3])"}) {
        INFO(bad);
        auto tour = parse_tour(tour_with(bad), "tour.json");
        REQUIRE_FALSE(tour);
        CHECK(tour.error().message.find("chapters[0].watch must be an array of: rope_pairs") != std::string::npos);
        CHECK(tour.error().message.find('\n') == std::string::npos);
    }
}

TEST_CASE("the bundled chapters whose task says to watch another widget name it") {
    auto tour = load_tour(ATTNLAB_SOURCE_DIR "/assets");
    REQUIRE(tour);
    for (const TourChapter& c : *tour) {
        INFO(c.id);
        if (c.id == "rope")
            CHECK(c.watch == std::vector<TourWatch>{TourWatch::rope_pairs, TourWatch::rope_score});
        else if (c.id == "masks")  // its card points at the padding masks
            CHECK(c.watch == std::vector<TourWatch>{TourWatch::padding_masks});
        else if (c.id == "ffn")  // its task, at every token's row of units
            CHECK(c.watch == std::vector<TourWatch>{TourWatch::ffn_rows});
        else
            CHECK(c.watch.empty());
    }
}
