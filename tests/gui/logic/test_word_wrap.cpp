// wrap_at_spaces: lines end only at spaces, never inside "0.95", and stay within the width.
#include "panels/word_wrap.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

using attnlab::gui::wrap_at_spaces;

namespace {

float chars(std::string_view s) { return static_cast<float>(s.size()); }  // one unit a character

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> lines;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST_CASE("wrap_at_spaces keeps a number whole where ImGui would break after its point", "[word_wrap]") {
    const std::string text = "the largest weight averages 0.95: nearly one-hot";
    const std::string wrapped = wrap_at_spaces(text, 30.0f, chars);
    const std::vector<std::string> lines = lines_of(wrapped);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "the largest weight averages");
    CHECK(lines[1] == "0.95: nearly one-hot");
}

TEST_CASE("wrap_at_spaces lines fit the width and keep every word in order", "[word_wrap]") {
    const std::string text = "Draw q and k with d_k random entries each, of mean 0 and variance 1. Then q·k adds up";
    for (float width : {10.0f, 17.0f, 25.0f, 40.0f, 200.0f}) {
        const std::string wrapped = wrap_at_spaces(text, width, chars);
        std::string joined;
        for (const std::string& line : lines_of(wrapped)) {
            CHECK(chars(line) <= width);
            if (!joined.empty()) joined += ' ';
            joined += line;
        }
        CHECK(joined == text);
    }
}

TEST_CASE("wrap_at_spaces gives a word wider than the width its own line and keeps newlines", "[word_wrap]") {
    const std::vector<std::string> lines = lines_of(wrap_at_spaces("a supercalifragilistic b\nc d", 6.0f, chars));
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "a");
    CHECK(lines[1] == "supercalifragilistic");
    CHECK(lines[2] == "b");
    CHECK(lines[3] == "c d");
}
