// The width a table column is given: its widest cell and the widest word of its label (labels wrap at spaces),
// so no number is ever squeezed ("0.142" one character a line, as the √d_k table once was).
#include "panels/table_cells.h"

#include <catch2/catch.hpp>

using namespace attnlab::gui;

namespace {

float ten_px_a_byte(std::string_view s) { return 10.0f * static_cast<float>(s.size()); }

}  // namespace

TEST_CASE("a table column is as wide as its widest cell or its label's widest word", "[app][table]") {
    CHECK(table_column_width("||∂L/∂s||, not scaled", {"0.142", "123.456"}, ten_px_a_byte) ==
          ten_px_a_byte("||∂L/∂s||,"));
    CHECK(table_column_width("d_k", {"2", "512"}, ten_px_a_byte) == 30.0f);
    CHECK(table_column_width("Var", {"0.98", "511.80"}, ten_px_a_byte) == 60.0f);
    CHECK(table_column_width("largest  weight", {}, ten_px_a_byte) == 70.0f);  // a run of spaces is no word
}
