// The attention view's token labels (whatever the widths and cell size, no two drawn labels overlap) and the numbers
// printed in its cells.
#include "panels/token_labels.h"
#include "panels/token_matrix.h"

#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <vector>

using attnlab::gui::plan_token_labels;
using attnlab::gui::TokenLabelPlan;

namespace {

struct Span {
    float lo, hi;  // along the axis, in pixels
};

// The spans the drawn labels cover along the axis, as draw_column_labels places them.
std::vector<Span> drawn_spans(const TokenLabelPlan& plan, const std::vector<float>& widths, float cell, float line_h) {
    std::vector<Span> spans;
    for (size_t j = 0; j < widths.size(); j += static_cast<size_t>(plan.stride)) {
        const float centre = (static_cast<float>(j) + 0.5f) * cell;
        const float half = (plan.turned ? line_h : widths[j]) * 0.5f;
        spans.push_back({centre - half, centre + half});
    }
    return spans;
}

}  // namespace

TEST_CASE("token labels never overlap: upright when they fit, else turned and thinned", "[token_labels]") {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> width(4.0f, 90.0f), cell(1.0f, 80.0f);
    std::uniform_int_distribution<int> count(1, 70);
    const float line_h = 17.0f, gap = 5.0f;
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<float> widths(static_cast<size_t>(count(rng)));
        for (float& w : widths) w = width(rng);
        const float c = cell(rng);
        const TokenLabelPlan plan = plan_token_labels(widths, c, line_h, gap);
        REQUIRE(plan.stride >= 1);
        const std::vector<Span> spans = drawn_spans(plan, widths, c, line_h);
        REQUIRE(!spans.empty());
        for (size_t k = 1; k < spans.size(); ++k) {
            INFO("trial " << trial << " cell " << c << " label " << k);
            CHECK(spans[k].lo - spans[k - 1].hi >= gap - 1e-3f);
        }
        float widest = 0.0f;
        for (float w : widths) widest = std::max(widest, w);
        CHECK(plan.depth == (plan.turned ? widest : line_h));
    }
}

TEST_CASE("token labels stay upright and all shown when every one fits its cell", "[token_labels]") {
    const TokenLabelPlan plan = plan_token_labels({30.0f, 42.0f, 18.0f}, 50.0f, 17.0f, 5.0f);
    CHECK_FALSE(plan.turned);
    CHECK(plan.stride == 1);
}

TEST_CASE("turned token labels are all shown while cells are a line tall", "[token_labels]") {
    const TokenLabelPlan wide = plan_token_labels({80.0f, 60.0f}, 22.0f, 17.0f, 5.0f);
    CHECK(wide.turned);
    CHECK(wide.stride == 1);
    const TokenLabelPlan narrow = plan_token_labels({80.0f, 60.0f, 70.0f, 20.0f}, 8.0f, 17.0f, 5.0f);
    CHECK(narrow.stride == 3);  // 22 px between turned labels: every third of 8 px cells
}

TEST_CASE("cell numbers: two decimals or one, fewer for large values, never -0, a masked score as −∞",
          "[token_labels]") {
    using attnlab::gui::cell_number;
    CHECK(cell_number(0.9731f, 2) == "0.97");
    CHECK(cell_number(0.9731f, 1) == "1.0");
    CHECK(cell_number(-0.004f, 2) == "0.00");
    CHECK(cell_number(-0.04f, 1) == "0.0");
    CHECK(cell_number(-12.345f, 2) == "-12.3");
    CHECK(cell_number(-12.345f, 1) == "-12");
    CHECK(cell_number(123.4f, 2) == "123");
    CHECK(cell_number(-std::numeric_limits<float>::infinity(), 2) == "−∞");
}

TEST_CASE("a token column fills its height, centred, and finds the token under the pointer", "[token_labels]") {
    using attnlab::gui::TokenColumn;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> height(40.0f, 1200.0f), max_step(10.0f, 140.0f);
    std::uniform_int_distribution<int> count(1, 64);
    for (int trial = 0; trial < 1000; ++trial) {
        const float top = 100.0f, h = height(rng), cap = max_step(rng);
        const int n = count(rng);
        const TokenColumn c = TokenColumn::spread(top, h, n, cap);
        INFO("trial " << trial << " height " << h << " n " << n << " cap " << cap);
        CHECK(c.step <= cap + 1e-4f);
        CHECK(c.step * static_cast<float>(n) <= h + 1e-3f);
        if (c.step < cap) CHECK(c.step * static_cast<float>(n) == Approx(h));  // fills the height unless capped
        CHECK(c.y(0) - 0.5f * c.step - top == Approx(top + h - (c.y(n - 1) + 0.5f * c.step)).margin(1e-2));
        for (int i = 0; i < n; ++i) {
            CHECK(c.at(c.y(i)) == i);
            CHECK(c.at(c.y(i) - 0.45f * c.step) == i);
            CHECK(c.at(c.y(i) + 0.45f * c.step) == i);
        }
        CHECK(c.at(c.y(0) - 0.55f * c.step) == -1);
        CHECK(c.at(c.y(n - 1) + 0.55f * c.step) == -1);
    }
}
