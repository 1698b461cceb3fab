// The Output view's bars (app/model/output_prediction) against the stepper's probs step: at T = 1
// they show the same p; at another T the bars are p at that T, each bar keeps the probs step's
// p at T = 1 for its tooltip, and both the view and the stepper's line say which T they show.
#include "output_prediction.h"
#include "session_support.h"

#include <cmath>
#include <cstdlib>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

struct Head {
    const Tensor& logits;  // (T, V)
    const Tensor& probs;   // (T, V): softmax(logits), T = 1
};

Head run_to_the_end(Session& s) {
    s.run_to(s.stepper().size());
    const ModelConfig& c = s.stepper().config();
    const Tensor* logits = s.stepper().output(StepId::head(StepKind::logits, c));
    const Tensor* probs = s.stepper().output(StepId::head(StepKind::probs, c));
    REQUIRE(logits);
    REQUIRE(probs);
    return {*logits, *probs};
}

const StepRecord& probs_record(const Session& s) {
    const auto index = s.stepper().find(StepId::head(StepKind::probs, s.stepper().config()));
    REQUIRE(index);
    return s.stepper().step(*index).record;
}

}  // namespace

TEST_CASE("at T = 1 the Output bars show the probs step's p, and the stepper's line names no temperature",
          "[app][output]") {
    Session s = test::english_korean();
    const Head head = run_to_the_end(s);
    OutputViewState v;  // T = 1
    const int last = static_cast<int>(head.logits.dim(0)) - 1;
    const PositionPrediction bars = predict_row(head.logits.row(last), {v.temperature, 0, 1.0f}, false, -1, 5);
    REQUIRE(bars.top.size() == 5);
    for (const Candidate& c : bars.top) CHECK(c.p == Approx(head.probs.row(last)(c.id)).margin(1e-6));
    CHECK_FALSE(temperatures_differ(v));
    CHECK(stepper_line_formula(probs_record(s), "p = softmax(logits)", v) == "p = softmax(logits)");
}

TEST_CASE("at T != 1 the bars are p at T, keep the probs step's p, and both lines name their temperature",
          "[app][output]") {
    Session s = test::english_korean();
    const Head head = run_to_the_end(s);
    OutputViewState v;
    v.temperature = 0.5f;
    const int last = static_cast<int>(head.logits.dim(0)) - 1;
    const PositionPrediction bars = predict_row(head.logits.row(last), {v.temperature, 0, 1.0f}, false, -1, 5);
    REQUIRE_FALSE(bars.top.empty());
    const Candidate& best = bars.top.front();
    CHECK(best.p > head.probs.row(last)(best.id) + 1e-4f);  // T < 1 sharpens: the bar is not the probs step's p
    for (const Candidate& c : bars.top) CHECK(c.p_t1 == Approx(head.probs.row(last)(c.id)).margin(1e-6));
    CHECK(temperatures_differ(v));  // the Output view says "Bars: p at T = 0.50 (the probs step is T = 1)"
    CHECK(stepper_line_formula(probs_record(s), "p = softmax(logits)", v) == "p = softmax(logits)  (T = 1)");
}

TEST_CASE("only the probs step's formula on the stepper's line names T = 1", "[app][output]") {
    Session s = test::english_korean();
    run_to_the_end(s);
    OutputViewState v;
    v.temperature = 2.0f;
    const auto logits = s.stepper().find(StepId::head(StepKind::logits, s.stepper().config()));
    REQUIRE(logits);
    CHECK(stepper_line_formula(s.stepper().step(*logits).record, "logits = x·Wᵀ", v) == "logits = x·Wᵀ");
}

TEST_CASE("over a vocabulary of 50,257 tokens every bar's percentage reads as a number, not 0.0%", "[app][output]") {
    RowVec logits(50257);  // GPT-2's V, the logits spread as a long prompt leaves them: no token above 1%
    for (Eigen::Index j = 0; j < logits.size(); ++j) logits[j] = 0.5f * std::sin(0.37f * static_cast<float>(j));
    const PositionPrediction bars =
        predict_row(ConstRowVecMap(logits.data(), logits.size()), {1.0f, 0, 1.0f}, false, -1, 10);
    REQUIRE(bars.top.size() == 10);
    REQUIRE(bars.top.front().p < 0.001f);
    for (const Candidate& c : bars.top) {
        const std::string text = percent_text(c.p);
        INFO(text << " for p = " << c.p);
        REQUIRE(text.back() == '%');
        const double shown = std::strtod(text.c_str(), nullptr) / 100.0;
        CHECK(shown == Approx(c.p).epsilon(0.05));  // two significant digits at least: within 5% of p
    }
    CHECK(percent_text(0.0) == "0%");
    CHECK(std::strtod(percent_text(0.1234).c_str(), nullptr) == Approx(12.3).margin(0.05));  // large p keep 1 decimal
    CHECK(std::strtod(percent_text(1.0).c_str(), nullptr) == 100.0);
    CHECK(percent_text(0.099999).size() == percent_text(0.12).size());  // 10.0%, not 10.00%: one decimal from 10% up
}
