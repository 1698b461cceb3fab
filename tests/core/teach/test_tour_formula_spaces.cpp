// A card wraps its texts at spaces: the offset "m − n" of the RoPE chapter is joined by no-break spaces (U+00A0),
// so no card line ends in "m" with "− n" on the next (as "§3.1" and "3 / 6" stay whole on the chapter line).
#include "teach/tour.h"

#include <catch2/catch.hpp>

#include <string>

using namespace attnlab;

TEST_CASE("the tour's texts never break inside the offset m − n") {
    auto tour = load_tour(ATTNLAB_SOURCE_DIR "/assets");
    REQUIRE(tour);
    const std::string breakable = "m − n", whole = "m\u00A0−\u00A0n";
    int joined = 0;
    for (const TourChapter& c : *tour)
        for (Language lang : {Language::english, Language::korean}) {
            const TourText& t = c.in(lang);
            for (const std::string& text : {t.title, t.look, t.task, t.done}) {
                INFO(c.id << ": " << text);
                CHECK(text.find(breakable) == std::string::npos);
                for (size_t at = text.find(whole); at != std::string::npos; at = text.find(whole, at + 1)) ++joined;
            }
        }
    CHECK(joined >= 4);  // the RoPE chapter's look and task, in both languages
}

// At the card's type a superscript digit is a speck (the audit's D15: "x²" in the RMSNorm chapter), so powers are
// written as chapter 7's 10000^(2i/d) is: "x^2".
TEST_CASE("the tour's texts write powers with ^, never as superscript digits") {
    auto tour = load_tour(ATTNLAB_SOURCE_DIR "/assets");
    REQUIRE(tour);
    const char* superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁻", "ⁿ"};
    for (const TourChapter& c : *tour)
        for (Language lang : {Language::english, Language::korean}) {
            const TourText& t = c.in(lang);
            for (const std::string& text : {t.title, t.look, t.task, t.done})
                for (const char* s : superscripts) {
                    INFO(c.id << ": " << text);
                    CHECK(text.find(s) == std::string::npos);
                }
        }
}
