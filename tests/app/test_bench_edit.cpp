// attnlab --bench-edit POS types one letter right after token POS's piece of the text (issue 38, D6): the letter
// lands inside that word, never in another, and a token with no typed piece has no place for it.
#include "bench_edit.h"
#include "session_support.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;
using namespace attnlab::gui::test;

TEST_CASE("bench-edit types its letter right after the token's piece", "[app][bench]") {
    Session s = english_korean();  // an encoder-decoder: the source is typed; its tokens i like red apples <eos>
    REQUIRE_FALSE(bench_edit_types_target(s));
    CHECK(text_with_letter_after_token(s, 0, 'x') == "ix like red apples");
    CHECK(text_with_letter_after_token(s, 2, 'x') == "i like redx apples");
    CHECK(text_with_letter_after_token(s, 3, 'x') == "i like red applesx");
    CHECK_FALSE(text_with_letter_after_token(s, 4, 'x'));  // <eos> was never typed
    CHECK_FALSE(text_with_letter_after_token(s, 5, 'x'));  // past the tokens

    REQUIRE(s.set_src_text("red  red apples"));  // the same word twice, two spaces apart: the second one's place
    CHECK(text_with_letter_after_token(s, 1, 's') == "red  reds apples");

    REQUIRE(s.set_src_ids({4, 5, 2}));  // ids typed by hand: no text to type into
    CHECK_FALSE(text_with_letter_after_token(s, 0, 'x'));
}
