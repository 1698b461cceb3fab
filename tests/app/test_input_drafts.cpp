// The Input view's text fields (app/model/input_drafts): Escape never takes back a sentence the
// views already run, and an edit the session refuses stays in its field with the reason.
#include "input_drafts.h"
#include "session_support.h"

using namespace attnlab;
using namespace attnlab::gui;

namespace {

FieldInput typed(std::string text) { return {std::move(text), false}; }

// Dear ImGui's Escape: the field hands back the text it had when it was clicked, as an edit.
FieldInput escape_reverting_to(std::string text) { return {std::move(text), true}; }

// A sentence of `n` words, every one in the tiny model's vocabulary.
std::string words_of(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += i == 0 ? "apples" : " apples";
    return s;
}

}  // namespace

TEST_CASE("Escape in a sentence field keeps the sentence the views already applied", "[app][input]") {
    Session s = test::english_korean();  // the field was clicked on "i like red apples"
    InputDrafts drafts;
    drafts.sentence_frame(s, InputSide::source, typed("i like apples"));
    REQUIRE(s.src_text() == "i like apples");
    const std::vector<int> ran = s.stepper().inputs().src_ids;

    drafts.sentence_frame(s, InputSide::source, escape_reverting_to("i like red apples"));
    CHECK(s.src_text() == "i like apples");
    CHECK(s.stepper().inputs().src_ids == ran);
    CHECK(drafts.shown(InputSide::source, s.src_text()) == "i like apples");
}

TEST_CASE("a pasted sentence too long for the model stays in its field with the reason", "[app][input]") {
    Session s = test::english_korean();
    InputDrafts drafts;
    const int max_len = s.stepper().config().max_len;
    const std::string pasted = words_of(max_len + 10);
    drafts.sentence_frame(s, InputSide::source, typed(pasted));

    CHECK(s.src_text() == "i like red apples");  // the views keep what ran
    CHECK(drafts.shown(InputSide::source, s.src_text()) == pasted);
    REQUIRE(drafts.draft(InputSide::source));
    const Refusal& why = drafts.draft(InputSide::source)->why;
    CHECK(why.kind == Refusal::Kind::too_long);
    CHECK(why.n_tokens > max_len);
    CHECK(why.max_len == max_len);
    CHECK(s.error().empty());  // the field says it; the Output view does not repeat it

    SECTION("an unrelated frame keeps the draft") {
        drafts.sentence_frame(s, InputSide::source, FieldInput{});
        CHECK(drafts.shown(InputSide::source, s.src_text()) == pasted);
    }
    SECTION("cutting it to length applies it and ends the draft") {
        drafts.sentence_frame(s, InputSide::source, typed(words_of(3)));
        CHECK(s.src_text() == words_of(3));
        CHECK_FALSE(drafts.draft(InputSide::source));
    }
    SECTION("Escape drops the draft and applies nothing") {
        drafts.sentence_frame(s, InputSide::source, escape_reverting_to("i like red apples"));
        CHECK_FALSE(drafts.draft(InputSide::source));
        CHECK(s.src_text() == "i like red apples");
    }
    SECTION("a sentence applied another way (an example, the tour) ends the draft") {
        REQUIRE(s.set_src_text("red apples"));
        CHECK(drafts.shown(InputSide::source, s.src_text()) == "red apples");
        CHECK_FALSE(drafts.draft(InputSide::source));
    }
}

TEST_CASE("a token-id field keeps ids that do not parse, or are too many, with the reason", "[app][input]") {
    Session s = test::english_korean();
    InputDrafts drafts;
    const std::vector<int> ran = s.stepper().inputs().src_ids;
    drafts.ids_frame(s, InputSide::source, typed("4, 5, x"));
    CHECK(s.stepper().inputs().src_ids == ran);
    REQUIRE(drafts.draft(InputSide::source));
    CHECK(drafts.draft(InputSide::source)->why.kind == Refusal::Kind::not_ids);
    CHECK(drafts.shown(InputSide::source, join_ids(ran)) == "4, 5, x");

    std::string many;
    for (int i = 0; i <= s.stepper().config().max_len; ++i) many += "5,";
    drafts.ids_frame(s, InputSide::source, typed(many));
    CHECK(s.stepper().inputs().src_ids == ran);
    CHECK(drafts.draft(InputSide::source)->why.kind == Refusal::Kind::too_long);

    drafts.ids_frame(s, InputSide::source, typed("4,5,6"));
    CHECK(s.stepper().inputs().src_ids == std::vector<int>{4, 5, 6});
    CHECK_FALSE(drafts.draft(InputSide::source));
}

TEST_CASE("token ids parse from commas and spaces, and nothing else", "[app][input]") {
    CHECK(parse_ids("4, 7 9,2") == std::vector<int>{4, 7, 9, 2});
    CHECK(parse_ids("") == std::vector<int>{});
    CHECK_FALSE(parse_ids("4;7"));
    CHECK(join_ids({4, 7, 9}) == "4,7,9");
}
