// PatchingTracker (app/model/patching_tracker.h): one request per change of what the grids depend on (the clean
// run's logits version, the corrupted ids, the metric, the piece), none on a frame where nothing changed; cancel
// and retry.
#include "corrupted_input.h"
#include "patching_tracker.h"
#include "session_support.h"
#include "work_modes.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("PatchingTracker: a request when the logits, the corrupted ids, the metric or the piece change",
          "[patching]") {
    Session s = test::english_korean();
    PatchingTracker t(WorkMode::between_frames);
    const AttributionMetric metric{AttributionMetricKind::logit, 5, -1, 0};
    auto corrupt = [&](const std::string& text) {
        const CorruptedInput c = read_corrupted_input(s.model(), s.stepper().inputs(), text);
        REQUIRE(c.error.empty());
        return c.inputs;
    };
    CHECK(t.update(s.stepper(), corrupt("i like red i"), metric, PatchPiece::residual));
    REQUIRE(t.result());  // between frames: run in the same update
    CHECK(t.result()->error.empty());
    REQUIRE(t.result()->exact);
    CHECK(t.result()->exact->piece == PatchPiece::residual);
    CHECK_FALSE(t.update(s.stepper(), corrupt("i like red i"), metric, PatchPiece::residual));  // nothing changed
    CHECK(t.update(s.stepper(), corrupt("i like red i"), metric, PatchPiece::heads));
    CHECK(t.result()->exact->piece == PatchPiece::heads);
    CHECK(t.update(s.stepper(), corrupt("i like i apples"), metric, PatchPiece::heads));
    const AttributionMetric other{AttributionMetricKind::logit, 6, -1, 0};
    CHECK(t.update(s.stepper(), corrupt("i like i apples"), other, PatchPiece::heads));
    REQUIRE(s.toggle_head({AttentionUse::decoder_self, 0}, 1));  // the logits re-run: a new version
    CHECK(t.update(s.stepper(), corrupt("i like i apples"), other, PatchPiece::heads));
    CHECK_FALSE(t.update(s.stepper(), corrupt("i like i apples"), other, PatchPiece::heads));
}

TEST_CASE("PatchingTracker: cancel keeps the same inputs from asking again until retry", "[patching]") {
    Session s = test::english_korean();
    PatchingTracker t(test::platform_work_mode());
    const CorruptedInput c = read_corrupted_input(s.model(), s.stepper().inputs(), "i like red i");
    const AttributionMetric metric{AttributionMetricKind::logit, 5, -1, 0};
    CHECK(t.update(s.stepper(), c.inputs, metric, PatchPiece::residual));
    t.cancel();
    CHECK(t.cancelled());
    CHECK_FALSE(t.run().busy());
    CHECK_FALSE(t.update(s.stepper(), c.inputs, metric, PatchPiece::residual));
    t.retry();
    CHECK(t.update(s.stepper(), c.inputs, metric, PatchPiece::residual));
    CHECK_FALSE(t.cancelled());
}
