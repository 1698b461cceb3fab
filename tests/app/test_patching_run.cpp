// PatchingRun (app/model/patching_run.h): on its thread and between frames, the grids PatchingTool gives, bit for
// bit; its progress; a new request replacing an old one; cancel; the length error as one line. And the corrupted
// sentence as the Input view reads it (corrupted_input.h).
#include "corrupted_input.h"
#include "patching_run.h"
#include "session_support.h"
#include "work_modes.h"

#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kGpt2 = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2";
const std::vector<int> kClean{49, 7, 23, 0, 41, 12, 12, 30, 5};
const std::vector<int> kCorrupt{49, 7, 11, 0, 41, 12, 12, 30, 5};
const AttributionMetric kMetric{AttributionMetricKind::logit_diff, 7, 23, 8};

PatchingRequest gpt2_request(std::vector<int> corrupt, PatchPiece piece) {
    auto loaded = open_model(kGpt2);
    REQUIRE(loaded);
    PatchingRequest r{loaded->model.config, loaded->model.weights, {}, {}, kMetric, piece};
    r.clean.tgt_ids = kClean;
    r.corrupt.tgt_ids = std::move(corrupt);
    return r;
}

// The result, waiting for the thread (or pumping) until it comes; nullopt after `tries` × 10 ms.
std::optional<PatchingResult> wait_for(PatchingRun& run, int tries = 6000) {
    for (int i = 0; i < tries; ++i) {
        run.pump();
        if (auto r = run.take()) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
}

void check_same_grid(const PatchGrid& a, const PatchGrid& b) {
    CHECK(a.piece == b.piece);
    CHECK(a.rows == b.rows);
    CHECK(a.cols == b.cols);
    CHECK(a.clean == b.clean);
    CHECK(a.corrupt == b.corrupt);
    CHECK(a.values == b.values);
}

}  // namespace

TEST_CASE("PatchingRun: the grids PatchingTool gives, on its thread and between frames, with progress", "[patching]") {
    const PatchingRequest request = gpt2_request(kCorrupt, PatchPiece::residual);
    auto tool = PatchingTool::create(request.config, request.weights, request.clean, request.corrupt, kMetric);
    REQUIRE(tool);
    auto exact = tool->grid(PatchPiece::residual, PatchMethod::exact);
    auto estimate = tool->grid(PatchPiece::residual, PatchMethod::gradient);
    REQUIRE(exact);
    REQUIRE(estimate);
    for (WorkMode mode : test::platform_work_modes()) {
        PatchingRun run(mode);
        CHECK_FALSE(run.busy());
        const uint64_t serial = run.request(request);
        // Between frames nothing runs before pump(); on its own thread the grid may already have ended.
        if (mode == WorkMode::between_frames) CHECK(run.busy());
        std::optional<PatchingResult> r;
        for (int i = 0; i < 6000 && run.busy(); ++i) {
            run.pump();
            if (run.busy()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        REQUIRE_FALSE(run.busy());
        const PatchingRun::Progress p = run.progress();  // every cell counted, until the result is taken
        CHECK(p.total == 18);
        CHECK(p.done == 18);
        r = run.take();
        REQUIRE(r);
        CHECK_FALSE(run.take());  // once
        CHECK(r->serial == serial);
        CHECK(r->error.empty());
        CHECK(r->clean == tool->clean_metric());
        CHECK(r->corrupt == tool->corrupt_metric());
        REQUIRE(r->exact);
        REQUIRE(r->gradient);
        check_same_grid(*r->exact, *exact);
        check_same_grid(*r->gradient, *estimate);
        CHECK(r->correlation == grid_correlation(*exact, *estimate));
    }
}

TEST_CASE("PatchingRun: a new request replaces an older one; cancel drops the result", "[patching]") {
    for (WorkMode mode : test::platform_work_modes()) {
        PatchingRun run(mode);
        const uint64_t first = run.request(gpt2_request(kCorrupt, PatchPiece::residual));
        const uint64_t second = run.request(gpt2_request(kCorrupt, PatchPiece::heads));
        CHECK(second != first);
        auto r = wait_for(run);
        REQUIRE(r);
        CHECK(r->serial == second);
        REQUIRE(r->exact);
        CHECK(r->exact->piece == PatchPiece::heads);
        CHECK(r->exact->cols == 4);  // the fixture's heads
        run.request(gpt2_request(kCorrupt, PatchPiece::attn_out));
        run.cancel();
        CHECK_FALSE(run.busy());
        CHECK_FALSE(wait_for(run, 30));  // the thread ends its job meanwhile; its result is dropped
    }
}

TEST_CASE("PatchingRun: lengths that differ come back as one line", "[patching]") {
    PatchingRun run(WorkMode::between_frames);
    run.request(gpt2_request({49, 7, 11}, PatchPiece::residual));
    auto r = wait_for(run);
    REQUIRE(r);
    CHECK(r->error == "the clean and corrupted prompt differ in length: 9 and 3 tokens");
    CHECK_FALSE(r->exact);
}

TEST_CASE("read_corrupted_input: the corrupted source read as the Input view reads it", "[patching]") {
    Session s = test::english_korean();
    const CorruptedInput same = read_corrupted_input(s.model(), s.stepper().inputs(), "i like red i");
    CHECK(same.error.empty());
    CHECK(same.ids.size() == s.stepper().inputs().src_ids.size());
    CHECK(same.inputs.src_ids == same.ids);
    CHECK(same.inputs.tgt_ids == s.stepper().inputs().tgt_ids);
    CHECK(same.differs == std::vector<bool>{false, false, false, true, false});  // "apples" → "i"; <eos> kept
    CHECK(same.labels.at(3) == "i");
    const CorruptedInput shorter = read_corrupted_input(s.model(), s.stepper().inputs(), "i like");
    CHECK(shorter.clean_length == 5);
    CHECK(shorter.error == "the clean and corrupted source differ in length: 5 and 3 tokens");
    const CorruptedInput bad_text = read_corrupted_input(s.model(), s.stepper().inputs(), "i like \xff");
    CHECK_FALSE(bad_text.error.empty());
    CHECK(bad_text.error.find('\n') == std::string::npos);
}

TEST_CASE("read_corrupted_input: a model without a vocabulary reads token ids", "[patching]") {
    auto loaded = open_model(kGpt2);
    REQUIRE(loaded);
    ForwardInputs clean;
    clean.tgt_ids = kClean;
    const CorruptedInput ids = read_corrupted_input(loaded->model, clean, "49 7 11 0 41 12 12 30 5");
    CHECK(ids.error.empty());
    CHECK(ids.inputs.tgt_ids == kCorrupt);
    CHECK(ids.labels.at(2) == "#11");
    CHECK(read_corrupted_input(loaded->model, clean, "49 7 x").error ==
          "token ids are integers separated by commas, e.g. 4,7,9,2");
}
