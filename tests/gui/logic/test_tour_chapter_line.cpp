// The tour card's chapter line wraps between its parts, never inside a count ("4 / 6") or the section ("§3.1"),
// at any width, in English and Korean.
#include "panels/tour_chapter_line.h"
#include "panels/word_wrap.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

using namespace attnlab::gui;

namespace {

float chars(std::string_view s) { return static_cast<float>(s.size()); }  // one unit a byte

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> lines;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST_CASE("the chapter line never wraps inside a count or the section", "[tour]") {
    ChapterPlace en{"Chapter", 12, 14, "From the paper to today's models", 4, 6, "3.1"};
    ChapterPlace ko{"챕터", 11, 14, "논문에서 오늘날의 모델까지", 3, 6, "3.1"};
    ChapterPlace no_part{"Chapter", 2, 14, "", 1, 1, "3.2.1"};
    for (const ChapterPlace& place : {en, ko, no_part}) {
        const std::string line = tour_chapter_line(place);
        const std::string whole[] = {
            std::to_string(place.chapter) + " / 14",
            place.part_title.empty() ? "§" + place.section : std::to_string(place.part_index) + " / 6",
            "§" + place.section};
        for (float width = 1.0f; width <= chars(line) + 20.0f; width += 1.0f) {
            INFO(line << " at width " << width);
            const std::string wrapped = wrap_at_spaces(line, width, chars);
            CHECK(wrapped.find("\u00A0") == std::string::npos);  // shown as plain spaces
            std::string one_line;
            for (const std::string& l : lines_of(wrapped)) one_line += l + "\n";
            for (const std::string& w : whole) CHECK(one_line.find(w) != std::string::npos);
        }
    }
}
