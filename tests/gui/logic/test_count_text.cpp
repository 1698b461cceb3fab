// Counts read as English grammar has them ("1 cell edited", not "1 cells edited") and as Korean writes them.
#include "panels/count_text.h"

#include <catch2/catch.hpp>

using namespace attnlab::gui;

TEST_CASE("a count of one takes the singular, any other count the plural", "[i18n]") {
    const char* one = "1 cell edited";
    const char* many = "%lld cells edited";
    CHECK(count_text(1, one, many, false) == "1 cell edited");
    CHECK(count_text(3, one, many, false) == "3 cells edited");
    CHECK(count_text(0, one, many, false) == "0 cells edited");
    CHECK(count_text(1, one, many, true) == "칸 1개 수정됨");
    CHECK(count_text(12, one, many, true) == "칸 12개 수정됨");
}
