// The numbers the attention view's large matrices (panels/token_matrix.h) print in their cells.
#include "panels/token_matrix.h"

#include <catch2/catch.hpp>

#include <limits>

TEST_CASE("cell numbers: two decimals or one, fewer for large values, never -0, a masked score as −∞",
          "[token_matrix]") {
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
