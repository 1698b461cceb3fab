// A sentence field over a long input (app/model/input_drafts' EditPacing): typing waits for a pause, Enter or
// leaving the field before the pass re-runs, so a word costs one re-run, not one per letter. The clock is the
// test's: each FieldInput says when its frame was.
#include "input_drafts.h"
#include "session_support.h"

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// Pacing under which the tiny test model counts as long (any work waits), with a 0.5 s pause.
constexpr EditPacing kEveryEditWaits{0.0, 0.5};

FieldInput typed_at(double now, std::string text) { return {std::move(text), false, false, now}; }
FieldInput idle_at(double now) { return {std::nullopt, false, false, now}; }
FieldInput left_at(double now) { return {std::nullopt, false, true, now}; }

}  // namespace

TEST_CASE("a long input's letters wait for a pause in typing, then apply once", "[app][input][pacing]") {
    Session s = test::english_korean();
    InputDrafts drafts(kEveryEditWaits);
    const uint64_t before = s.stepper().next_version();

    drafts.sentence_frame(s, InputSide::source, typed_at(10.0, "i like r"));
    drafts.sentence_frame(s, InputSide::source, typed_at(10.2, "i like re"));
    drafts.sentence_frame(s, InputSide::source, idle_at(10.4));
    drafts.sentence_frame(s, InputSide::source, typed_at(10.6, "i like red"));
    // Typing goes on: nothing ran yet, and the field shows what was typed.
    CHECK(s.src_text() == "i like red apples");
    CHECK(s.stepper().next_version() == before);
    CHECK(drafts.waiting(InputSide::source));
    CHECK(drafts.shown(InputSide::source, s.src_text()) == "i like red");

    drafts.sentence_frame(s, InputSide::source, idle_at(11.0));  // 0.4 s after the last letter
    CHECK(s.src_text() == "i like red apples");
    drafts.sentence_frame(s, InputSide::source, idle_at(11.1));  // 0.5 s: the pause
    CHECK(s.src_text() == "i like red");
    CHECK_FALSE(drafts.waiting(InputSide::source));
    CHECK(drafts.shown(InputSide::source, s.src_text()) == "i like red");
}

TEST_CASE("Enter or leaving the field applies a waiting edit at once", "[app][input][pacing]") {
    Session s = test::english_korean();
    InputDrafts drafts(kEveryEditWaits);
    drafts.sentence_frame(s, InputSide::source, typed_at(3.0, "i like apples"));
    REQUIRE(s.src_text() == "i like red apples");
    drafts.sentence_frame(s, InputSide::source, left_at(3.1));
    CHECK(s.src_text() == "i like apples");
    CHECK_FALSE(drafts.waiting(InputSide::source));
}

TEST_CASE("Escape drops a waiting edit, and the chips' edit replaces it", "[app][input][pacing]") {
    Session s = test::english_korean();
    InputDrafts drafts(kEveryEditWaits);
    drafts.sentence_frame(s, InputSide::source, typed_at(1.0, "i like apples"));
    SECTION("Escape") {
        drafts.sentence_frame(s, InputSide::source, FieldInput{"i like red apples", true, true, 1.1});
        CHECK_FALSE(drafts.waiting(InputSide::source));
        drafts.sentence_frame(s, InputSide::source, idle_at(5.0));
        CHECK(s.src_text() == "i like red apples");
    }
    SECTION("a sentence applied another way") {
        REQUIRE(s.set_src_text("red apples"));
        CHECK(drafts.shown(InputSide::source, s.src_text()) == "red apples");
        drafts.sentence_frame(s, InputSide::source, idle_at(5.0));
        CHECK(s.src_text() == "red apples");
    }
}

TEST_CASE("a waiting edit the session refuses becomes a draft with its reason", "[app][input][pacing]") {
    Session s = test::english_korean();
    InputDrafts drafts(kEveryEditWaits);
    std::string pasted;
    for (int i = 0; i <= s.stepper().config().max_len; ++i) pasted += "apples ";
    drafts.sentence_frame(s, InputSide::source, typed_at(1.0, pasted));
    drafts.sentence_frame(s, InputSide::source, idle_at(2.0));
    CHECK(s.src_text() == "i like red apples");
    REQUIRE(drafts.draft(InputSide::source));
    CHECK(drafts.draft(InputSide::source)->why.kind == Refusal::Kind::too_long);
    CHECK(drafts.shown(InputSide::source, s.src_text()) == pasted);
}

TEST_CASE("a cheap re-run applies with every letter", "[app][input][pacing]") {
    Session s = test::english_korean();
    InputDrafts drafts;  // the app's pacing: the tiny model is far under it
    drafts.sentence_frame(s, InputSide::source, typed_at(1.0, "i like apples"));
    CHECK(s.src_text() == "i like apples");
    CHECK_FALSE(drafts.waiting(InputSide::source));
}

TEST_CASE("the app's pacing waits on GPT-2 small over a long prompt, not on a short one", "[app][input][pacing]") {
    ModelConfig gpt2;
    gpt2.arch = Arch::decoder_only;
    gpt2.d_model = 768, gpt2.n_heads = 12, gpt2.d_ff = 3072, gpt2.n_decoder_layers = 12, gpt2.n_encoder_layers = 0;
    gpt2.tgt_vocab_size = gpt2.src_vocab_size = 50257;
    gpt2.max_len = 1024;
    const EditPacing pacing;
    CHECK(edit_waits_for_pause(pacing, gpt2, 992));
    CHECK_FALSE(edit_waits_for_pause(pacing, gpt2, 8));
}
