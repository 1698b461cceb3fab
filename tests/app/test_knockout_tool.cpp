// KnockoutTool and KnockoutRun (app/model/knockout_tool.h, knockout_run.h): the tool's knockouts equal core's on a
// stepper of the same inputs, bit for bit, and leave its run as the inputs give it; the run gives the tool's grid on
// its thread and between frames, with its progress; a new request replaces an old one; errors in one line.
#include "knockout_run.h"
#include "work_modes.h"

#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kGpt2 = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2";
const AttributionMetric kMetric{AttributionMetricKind::logit_diff, 7, 23, 8};

KnockoutRequest gpt2_request(KnockoutSite site) {
    auto loaded = open_model(kGpt2);
    REQUIRE(loaded);
    KnockoutRequest r{loaded->model.config, loaded->model.weights, {}, kMetric, site};
    r.inputs.tgt_ids = {49, 7, 23, 0, 41, 12, 12, 30, 5};
    return r;
}

bool same_grid(const KnockoutGrid& a, const KnockoutGrid& b) {
    return a.rows == b.rows && a.cols == b.cols &&
           std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0;
}

std::optional<KnockoutRunResult> wait_for(KnockoutRun& run) {
    for (int i = 0; i < 6000; ++i) {
        run.pump();
        if (auto r = run.take()) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("KnockoutTool: knockouts as core gives them, the run left as it was", "[knockout]") {
    const KnockoutRequest r = gpt2_request({AttentionUse::decoder_self, 1, -1});
    auto tool = KnockoutTool::create(r.config, r.weights, r.inputs, kMetric);
    REQUIRE(tool);
    auto stepper = Stepper::create(r.config, r.weights, r.inputs);
    REQUIRE(stepper);
    stepper->run_all();
    auto one = tool->edge(r.site, 8, 3);
    auto want = knockout_edge(*stepper, r.site, 8, 3, kMetric);
    REQUIRE(one);
    REQUIRE(want);
    CHECK(one->after == want->after);
    CHECK(one->before == tool->metric_value());
    CHECK(one->change() != 0.0);
    auto again = tool->edge(r.site, 8, 3);  // the first knockout was undone: the same numbers again
    REQUIRE(again);
    CHECK(again->after == one->after);
    auto grid = tool->grid(r.site);
    auto want_grid = knockout_grid(*stepper, r.site, kMetric);
    REQUIRE(grid);
    REQUIRE(want_grid);
    CHECK(same_grid(*grid, *want_grid));
}

TEST_CASE("KnockoutTool: one-line errors", "[knockout]") {
    const KnockoutRequest r = gpt2_request({AttentionUse::decoder_self, 0, -1});
    auto bad = KnockoutTool::create(r.config, r.weights, r.inputs, {AttributionMetricKind::logit, 7, -1, 9});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("position 9 is past the end") == 0);
    auto tool = KnockoutTool::create(r.config, r.weights, r.inputs, kMetric);
    REQUIRE(tool);
    auto cross = tool->edge({AttentionUse::cross, 0, -1}, 0, 0);
    REQUIRE_FALSE(cross);
    CHECK(cross.error().message == "this model has no cross-attention");
}

TEST_CASE("KnockoutRun: the tool's grid on its thread and between frames, with progress", "[knockout]") {
    const KnockoutRequest r = gpt2_request({AttentionUse::decoder_self, 1, 2});
    auto tool = KnockoutTool::create(r.config, r.weights, r.inputs, kMetric);
    REQUIRE(tool);
    auto want = tool->grid(r.site);
    REQUIRE(want);
    for (WorkMode mode : test::platform_work_modes()) {
        KnockoutRun run(mode);
        run.request(gpt2_request({AttentionUse::decoder_self, 0, -1}));  // replaced before it is taken
        run.request(r);
        // Between frames nothing runs before pump(); on its own thread the small grid may already have ended.
        if (mode == WorkMode::between_frames) CHECK(run.busy());
        auto got = wait_for(run);
        REQUIRE(got);
        CHECK(got->serial == 2);
        REQUIRE(got->grid);
        CHECK(same_grid(*got->grid, *want));
        CHECK_FALSE(run.busy());
        CHECK_FALSE(run.take());
    }
}
