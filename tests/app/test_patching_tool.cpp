// PatchingTool (app/model/patching_tool.h): the clean and corrupted runs on one stepper, the grids it gives equal to
// the core's, its progress, and its one-line errors (lengths that differ, a position past the end, a token outside
// the vocabulary, a target that differs).
#include "patching_tool.h"

#include "hf/open_model.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kGpt2 = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2";

ForwardInputs prompt(std::vector<int> ids) {
    ForwardInputs in;
    in.tgt_ids = std::move(ids);
    return in;
}

Result<PatchingTool> gpt2_tool(std::vector<int> clean, std::vector<int> corrupt, AttributionMetric metric) {
    auto loaded = open_model(kGpt2);
    REQUIRE(loaded);
    return PatchingTool::create(loaded->model.config, loaded->model.weights, prompt(std::move(clean)),
                                prompt(std::move(corrupt)), metric);
}

const std::vector<int> kClean{49, 7, 23, 0, 41, 12, 12, 30, 5};
const std::vector<int> kCorrupt{49, 7, 11, 0, 41, 12, 12, 30, 5};
const AttributionMetric kMetric{AttributionMetricKind::logit_diff, 7, 23, 8};

}  // namespace

TEST_CASE("PatchingTool: the metric on both runs, a grid with progress, the estimate beside it", "[patching]") {
    auto tool = gpt2_tool(kClean, kCorrupt, kMetric);
    REQUIRE(tool);
    CHECK(tool->clean_metric() == Approx(-8.950805).margin(1e-4));  // fixtures/patching.json, gpt2
    CHECK(tool->corrupt_metric() == Approx(-9.037769).margin(1e-4));
    CHECK(tool->corrupted().inputs().tgt_ids == kCorrupt);
    std::vector<int64_t> done;
    int64_t total = 0;
    auto grid = tool->grid(PatchPiece::residual, PatchMethod::exact, [&](int64_t d, int64_t t) {
        done.push_back(d);
        total = t;
        return true;
    });
    REQUIRE(grid);
    CHECK(grid->rows == 2);
    CHECK(grid->cols == 9);
    CHECK(total == 18);
    REQUIRE(done.size() == 18);
    CHECK(done.back() == 18);
    CHECK(grid->normalised(0, 2) == Approx((grid->at(0, 2) - grid->corrupt) / (grid->clean - grid->corrupt)));
    CHECK(grid->at(0, 0) == grid->corrupt);  // position 0 is the same token in both runs
    auto estimate = tool->grid(PatchPiece::residual, PatchMethod::gradient);
    REQUIRE(estimate);
    CHECK(grid_correlation(*grid, *estimate) > 0.5);
    CHECK(tool->corrupted().inputs().tgt_ids == kCorrupt);  // the grids leave the corrupted run as it was
    CHECK(*metric_value(tool->corrupted(), kMetric) == tool->corrupt_metric());
}

TEST_CASE("PatchingTool: one-line errors", "[patching]") {
    auto lengths = gpt2_tool(kClean, {49, 7, 11}, kMetric);
    REQUIRE_FALSE(lengths);
    CHECK(lengths.error().message == "the clean and corrupted prompt differ in length: 9 and 3 tokens");
    auto past = gpt2_tool(kClean, kCorrupt, {AttributionMetricKind::logit, 7, -1, 9});
    REQUIRE_FALSE(past);
    CHECK(past.error().message.find("position 9 is past the end") == 0);
    auto token = gpt2_tool(kClean, {49, 7, 100000, 0, 41, 12, 12, 30, 5}, kMetric);
    REQUIRE_FALSE(token);
    CHECK(token.error().message.find("the corrupted prompt token 2 has id 100000") == 0);
    auto logit = gpt2_tool(kClean, kCorrupt, {AttributionMetricKind::logit, 7, -1, 8});
    REQUIRE(logit);
    CHECK(logit->grid(PatchPiece::heads, PatchMethod::gradient));                 // a single logit has its estimate too
    auto encoder = logit->grid(PatchPiece::enc_residual, PatchMethod::gradient);  // GPT-2 has no encoder
    REQUIRE_FALSE(encoder);
    CHECK(encoder.error().message.find("enc-residual patches an encoder-decoder's encoder") == 0);
}
