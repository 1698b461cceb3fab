// The session's timeline past the forward pass: the backward steps, stepping into and back out of them, edits
// that re-run the forward and then the backward to the same place, and the loss the user chooses.
#include "backward/backward_pass.h"
#include "session.h"
#include "session_support.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;
using namespace attnlab::gui::test;

namespace {

// The tiny en → ko session with a target of 5 tokens, run to the forward's end.
Session translating() {
    Session s = english_korean();
    REQUIRE(s.set_tgt_text("나 는 사과 를"));
    s.run_to(s.stepper().size());
    return s;
}

}  // namespace

TEST_CASE("the timeline goes on past the forward pass with one backward step per step the loss reaches",
          "[session][backward]") {
    Session s = translating();
    const size_t n = s.stepper().size();
    REQUIRE(s.backward_unavailable().empty());
    CHECK(s.backward_steps() == BackwardPass::plan(s.stepper()).size());
    CHECK(s.timeline_size() == n + s.backward_steps());
    CHECK_FALSE(s.in_backward());
    CHECK(s.gradient(StepId::head(StepKind::logits, s.stepper().config())) == nullptr);  // forward half: none

    s.step_forward();  // the first backward step: back through the output projection
    CHECK(s.in_backward());
    CHECK(s.timeline_cursor() == n + 1);
    REQUIRE(s.backward());
    CHECK(s.backward()->cursor() == 1);
    CHECK(s.gradient(StepId::head(StepKind::logits, s.stepper().config())) != nullptr);
    CHECK(s.gradient(StepId::of(StepKind::token_embedding, Stack::encoder)) == nullptr);  // not reached yet

    s.run_to(s.timeline_size());
    const TraceEntry* d_src = s.gradient(StepId::of(StepKind::token_embedding, Stack::encoder));
    REQUIRE(d_src);
    const Tensor whole = d_src->value;
    // Stepping back within the backward half, then forward again, gives the same bits.
    s.step_back();
    CHECK(s.timeline_cursor() == s.timeline_size() - 1);
    s.step_forward();
    REQUIRE(s.gradient(StepId::of(StepKind::token_embedding, Stack::encoder)));
    CHECK(s.gradient(StepId::of(StepKind::token_embedding, Stack::encoder))->value.data == whole.data);
    // Back into the forward half: no gradients are shown.
    s.run_to(n);
    CHECK_FALSE(s.in_backward());
    CHECK(s.gradient(StepId::head(StepKind::logits, s.stepper().config())) == nullptr);
}

TEST_CASE("an edit in the backward half re-runs the forward, then the backward to the same step",
          "[session][backward]") {
    Session s = translating();
    const size_t n = s.stepper().size();
    s.run_to(n + 5);
    const uint64_t before = s.gradient(StepId::head(StepKind::logits, s.stepper().config()))->version;
    const double loss = s.backward()->loss();
    REQUIRE(s.toggle_head({AttentionUse::cross, 0}, 1));
    CHECK(s.timeline_cursor() == n + 5);
    REQUIRE(s.backward());
    CHECK(s.backward()->cursor() == 5);
    CHECK(s.backward()->loss() != loss);
    CHECK(s.gradient(StepId::head(StepKind::logits, s.stepper().config()))->version != before);
    // An edit that leaves one target token: no next token to predict, so no backward half.
    REQUIRE(s.set_tgt_ids({1}));
    CHECK_FALSE(s.backward_unavailable().empty());
    CHECK(s.timeline_size() == s.stepper().size());
    CHECK_FALSE(s.in_backward());
}

TEST_CASE("the user's loss: one token or a logit difference, refused when it does not fit", "[session][backward]") {
    Session s = translating();
    CHECK(s.loss().kind == LossKind::next_token);
    LossSpec token{LossKind::token, 6, -1, 2};
    REQUIRE(s.set_loss(token));
    s.run_to(s.timeline_size());
    REQUIRE(s.backward());
    CHECK(s.backward()->loss_spec().to_string() == "token:6@2");
    LossSpec past{LossKind::token, 6, -1, 40};
    CHECK_FALSE(s.set_loss(past));
    CHECK(s.error().find("past the last position") != std::string::npos);
    CHECK(s.loss().to_string() == "token:6@2");  // kept
    LossSpec outside{LossKind::logit_diff, 4, 999, 1};
    CHECK_FALSE(s.set_loss(outside));
    CHECK(s.error().find("vocabulary") != std::string::npos);
}
