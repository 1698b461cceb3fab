// The playground's written-out arithmetic: numbers as written by hand, and each stage's formula.
#include "teach/hand_formulas.h"
#include "teach/hand_presets.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace attnlab;

TEST_CASE("numbers are written with at most three decimals and a real minus sign", "[teach]") {
    CHECK(hand_number(1.0) == "1");
    CHECK(hand_number(0.70710678) == "0.707");
    CHECK(hand_number(-2.5) == "\u22122.5");
    CHECK(hand_number(-0.0001) == "0");
    CHECK(hand_number(0.0005) == "0.001");
    CHECK(hand_number(123456.0) == "1.23e+05");
    CHECK(hand_number(-std::numeric_limits<double>::infinity()) == "\u2212∞");
    CHECK(hand_number(std::numeric_limits<double>::quiet_NaN()) == "NaN");
}

TEST_CASE("each stage of the notes' example is written out with its numbers", "[teach]") {
    const HandSpec spec = notes_worked_example();
    const auto a = hand_attention(spec);
    REQUIRE(a);
    CHECK(projection_formula(spec, 'Q', 0, 0) == "Q[1,1] = x₁·W_Q[:,1] = 1×1 + 0×0 + 1×1 = 2");
    CHECK(projection_formula(spec, 'V', 1, 1) == "V[2,2] = x₂·W_V[:,2] = 0×0 + 1×3 + 0×1 = 3");
    CHECK(score_formula(*a, 0, 1) == "QKᵀ[1,2] = q₁·k₂ = 2×0 + 1×1 = 1");
    CHECK(scaled_formula(spec, *a, 0, 1) == "1 / √2 = 0.707");
    CHECK(masked_formula(spec, *a, 0, 0) == "mask[1,1] = 0 → \u2212∞");
    CHECK(masked_formula(spec, *a, 0, 1) == "mask[1,2] = 1 → 0.707");
    CHECK(weight_formula(*a, 0, 0) == "e^(\u2212∞) = 0");
    CHECK(weight_formula(*a, 0, 1) == "e^0.707 / e^0.707 = 2.028 / 2.028 = 1");
    CHECK(weight_formula(*a, 1, 0) == "e^0.707 / (e^0.707 + e^0.707) = 2.028 / 4.056 = 0.5");
    CHECK(context_formula(*a, 0, 1) == "out[1,2] = w₁·V[:,2] = 0×1 + 1×3 = 3");
}

TEST_CASE("negative factors get parentheses, and large scores are shown minus the row's largest", "[teach]") {
    HandSpec spec = look_ahead_example();
    spec.q(0, 0) = -1.0f;
    spec.scale = false;
    auto a = hand_attention(spec);
    REQUIRE(a);
    CHECK(score_formula(*a, 0, 0) == "QKᵀ[1,1] = q₁·k₁ = (\u22121)×1 + 0×0 + 1×1 + 0×0 = 0");
    CHECK(scaled_formula(spec, *a, 0, 0) == "0");  // no scaling: the score itself
    CHECK(weight_formula(*a, 1, 1) == "e^2 / (e^0 + e^2) = 7.389 / 8.389 = 0.881");

    spec.q.row(2) << 20, 0, 19, 0;  // q₃·k = [39, 0, 40]: e^40 is shown as e^(40−40)
    a = hand_attention(spec);
    REQUIRE(a);
    CHECK(weight_formula(*a, 2, 0) ==
          "e^(39\u221240) / (e^(39\u221240) + e^(0\u221240) + e^(40\u221240)) = "
          "0.368 / 1.368 = 0.269");
}
