// The unit small values print in (widgets/value_units.h): the attention grid's enlarged head and the zoomable
// detail print a gradient's ∂L/∂weights as multiples of 10^exponent, never as a matrix of "0.00".
#include "panels/token_matrix.h"
#include "widgets/value_units.h"

#include <catch2/catch.hpp>

#include <limits>
#include <vector>

using namespace attnlab::gui;

TEST_CASE("gradients too small for two decimals print in units of 10^exponent", "[value_units]") {
    // A backward-half head: every |∂L/∂weights| below 1e-4, its largest -3.648e-5 (the audit's D4).
    const std::vector<float> head = {-3.648e-5f, 1.2e-5f, 0.0f, 7.0e-6f};
    CHECK(cell_number(head[0], 2) == "0.00");  // printed as it is, as the grid's enlarged head did
    const int exponent = print_exponent(largest_magnitude(head.data(), head.size()));
    CHECK(exponent == -5);
    CHECK(cell_number(head[0] * print_factor(exponent), 2) == "-3.65");
    CHECK(cell_number(head[1] * print_factor(exponent), 2) == "1.20");
    CHECK(cell_number(head[3] * print_factor(exponent), 2) == "0.70");
    CHECK(caption_with_unit("∂L/∂weights", exponent) == "∂L/∂weights  (×10^-5)");
    for (float v : head)  // no cell but the zero one reads as 0
        if (v != 0.0f) CHECK(cell_number(v * print_factor(exponent), 2) != "0.00");
}

TEST_CASE("values of a readable size print as they are", "[value_units]") {
    CHECK(print_exponent(0.97f) == 0);
    CHECK(print_exponent(0.05f) == 0);
    CHECK(print_exponent(0.049f) == -2);
    CHECK(print_exponent(12.0f) == 0);
    CHECK(print_exponent(0.0f) == 0);
    CHECK(print_exponent(std::numeric_limits<float>::infinity()) == 0);
    CHECK(print_factor(0) == 1.0f);
    CHECK(caption_with_unit("attention weight", 0) == "attention weight");
}

TEST_CASE("a masked score's −∞ does not set the unit", "[value_units]") {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> scores = {-inf, 2.0e-3f, -1.0e-3f};
    CHECK(largest_magnitude(scores.data(), scores.size()) == Approx(2.0e-3f));
    CHECK(print_exponent(largest_magnitude(scores.data(), scores.size())) == -3);
    CHECK(largest_magnitude(scores.data(), 1) == 0.0f);
}
