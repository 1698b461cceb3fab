// The app's step explanations, without a display: the bundled texts found through the app's
// assets, the session's words in the numbers, the language switch, and a missing file.
#include "default_model.h"
#include "step_explainer.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kAssets = std::string(ATTNLAB_SOURCE_DIR) + "/assets";

Session bundled_session() {
    auto s = default_session(kAssets, std::nullopt, std::nullopt);
    if (!s) FAIL(s.error().message);
    return std::move(*s);
}

}  // namespace

TEST_CASE("every step of the bundled model is explained in both languages, with its words", "[explain]") {
    Session session = bundled_session();
    session.run_to(session.stepper().size());
    StepExplainer explainer;
    for (size_t i = 0; i < session.stepper().size(); ++i) {
        INFO(session.stepper().step(i).path);
        auto en = explainer.explain(kAssets, session, i, false);
        auto ko = explainer.explain(kAssets, session, i, true);
        REQUIRE(en);
        REQUIRE(ko);
        CHECK(en->title == session.stepper().step(i).title);
        CHECK(ko->title != en->title);
        CHECK(en->numbers.find('#') == std::string::npos);  // every token has its word, none shows as #id
    }
    const size_t embed = *session.stepper().find("src.embed");
    auto apples = explainer.explain(kAssets, session, embed, false, {0, 3, -1});
    REQUIRE(apples);
    CHECK_THAT(apples->numbers, Catch::Contains("“apples”"));
    auto probs = explainer.explain(kAssets, session, *session.stepper().find("probs"), true);
    REQUIRE(probs);
    CHECK_THAT(probs->numbers, Catch::Contains("“좋아해”"));  // after 나 는 빨간 사과 를, the trained model says 좋아해
}

TEST_CASE("a missing explanations folder is a one-line error, and the app goes on", "[explain]") {
    Session session = bundled_session();
    session.run_to(3);
    StepExplainer explainer;
    auto e = explainer.explain("/nonexistent", session, 0, true);
    REQUIRE_FALSE(e);
    CHECK_THAT(e.error().message, Catch::Contains("/nonexistent/explanations/ko.json"));
    CHECK(e.error().message.find('\n') == std::string::npos);
    CHECK_FALSE(
        explainer.explain("/nonexistent", session, 1, true));  // the failed load is kept, not retried each frame
    CHECK(session.stepper().cursor() == 3);
}

TEST_CASE("a backward step's numbers name the loss in the UI's language", "[explain][backward]") {
    Session session = bundled_session();
    REQUIRE(session.backward_steps() > 0);
    session.run_to(session.timeline_size());
    StepExplainer explainer;
    auto ko = explainer.explain_backward(kAssets, session, 0, true);
    auto en = explainer.explain_backward(kAssets, session, 0, false);
    REQUIRE(ko);
    REQUIRE(en);
    REQUIRE(ko->has_numbers);
    CHECK_THAT(ko->numbers, !Catch::Contains("next-token"));  // the CLI's spelling, English in a Korean line
    CHECK_THAT(ko->numbers, Catch::Contains("다음 토큰"));
    CHECK_THAT(en->numbers, Catch::Contains("next token"));
    REQUIRE(session.set_loss({LossKind::token, 6, -1, 2}));
    session.run_to(session.timeline_size());
    auto token = explainer.explain_backward(kAssets, session, 0, true);
    REQUIRE(token);
    CHECK_THAT(token->numbers, Catch::Contains("위치 2"));
    CHECK_THAT(token->numbers, !Catch::Contains("token:"));
    // A single logit and a probability each have their own name, not the logit difference's.
    REQUIRE(session.set_loss({LossKind::logit, 6, -1, 2}));
    session.run_to(session.timeline_size());
    auto logit = explainer.explain_backward(kAssets, session, 0, false);
    REQUIRE(logit);
    CHECK_THAT(logit->numbers, Catch::Contains("logit "));
    CHECK_THAT(logit->numbers, !Catch::Contains("−"));
    REQUIRE(session.set_loss({LossKind::prob, 6, -1, 2}));
    session.run_to(session.timeline_size());
    auto prob = explainer.explain_backward(kAssets, session, 0, true);
    REQUIRE(prob);
    CHECK_THAT(prob->numbers, Catch::Contains("확률"));
}
