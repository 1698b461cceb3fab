// The masks view's sizes (panels/mask_sizing.h): a mask either fits whole at whole-pixel cells of at least
// kMinMaskCell or goes to the zoomable viewport, and a padding strip shows every run of keys.
#include "panels/mask_sizing.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace attnlab::gui;

TEST_CASE("a sentence's mask fits whole; a 992-token prompt's does not, and is zoomed instead", "[mask_sizing]") {
    CHECK(mask_cell(23, 23, 600.0f, 400.0f, 40.0f) == 17.0f);  // 400 / 23 = 17.4: the height decides
    CHECK(mask_cell(7, 7, 1600.0f, 900.0f, 40.0f) == 40.0f);   // a short sentence: the largest cells
    CHECK(mask_cell(992, 992, 1500.0f, 700.0f, 40.0f) == 0.0f);  // < 1 px a cell: drawn whole it would overflow
    CHECK(mask_cell(1, 992, 1500.0f, 700.0f, 40.0f) == 0.0f);    // the padding row too: a strip instead
    CHECK(mask_cell(0, 5, 100.0f, 100.0f, 40.0f) == 0.0f);
}

TEST_CASE("a padding strip covers its width, and one <pad> among 992 keys is at least a pixel", "[mask_sizing]") {
    std::vector<float> keep(992, 1.0f);
    keep[500] = 0.0f;
    const float width = 600.0f;  // 0.6 px a key
    const std::vector<StripRun> runs = strip_runs(keep.data(), static_cast<int>(keep.size()), width);
    REQUIRE(runs.size() == 3);
    CHECK(runs[1].first == 500);
    CHECK(runs[1].end == 501);
    CHECK_FALSE(runs[1].kept);
    CHECK(runs[1].x1 - runs[1].x0 >= 1.0f);
    CHECK(runs.front().x0 == 0.0f);
    CHECK(runs.back().x1 == Approx(width));
    for (size_t r = 1; r < runs.size(); ++r) CHECK(runs[r].x0 == runs[r - 1].x1);
    CHECK(strip_key_at(runs, 0.0f) == 0);
    CHECK(strip_key_at(runs, 0.5f * (runs[1].x0 + runs[1].x1)) == 500);
    CHECK(strip_key_at(runs, width - 0.01f) == 991);
    CHECK(strip_key_at(runs, width + 1.0f) == -1);
}

TEST_CASE("a strip of equal keys is one run; keys share the width evenly", "[mask_sizing]") {
    const std::vector<float> keep = {1, 1, 0, 0};
    const std::vector<StripRun> runs = strip_runs(keep.data(), 4, 40.0f);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].x1 == Approx(20.0f));
    CHECK(strip_key_at(runs, 25.0f) == 2);
    CHECK(strip_key_at(runs, 35.0f) == 3);
}
