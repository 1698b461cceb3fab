// The timing bench/README.md quotes: GPT-2 small (/tmp/attnlab-gpt2-124m, or ATTNLAB_GPT2_DIR) at 64 tokens, the
// whole residual grid (12 × 64 patches) by the row re-run, against 12 × 64 full forward passes (the median of 5
// full passes, times 768). Hidden (not run by default): core_tests "[.patching-bench]".
#include "analysis/activation_patching.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace attnlab;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("bench: GPT-2 small residual grid at 64 tokens, row re-runs against full passes", "[.patching-bench]") {
    const char* dir = std::getenv("ATTNLAB_GPT2_DIR");
    auto loaded = open_model(dir ? dir : "/tmp/attnlab-gpt2-124m");
    REQUIRE(loaded);
    const ModelConfig& config = loaded->model.config;
    std::vector<int> clean(64);
    for (size_t i = 0; i < clean.size(); ++i) clean[i] = static_cast<int>((i * 7919 + 13) % 50257);
    std::vector<int> corrupt = clean;
    corrupt[32] = 1757;
    ForwardInputs in;
    in.tgt_ids = clean;
    auto s = Stepper::create(config, loaded->model.weights, in);
    REQUIRE(s);
    s->run_all();
    const AttributionMetric metric{AttributionMetricKind::logit_diff, clean[63], corrupt[32], 63};
    const double clean_value = *metric_value(*s, metric);
    auto steps = patch_steps(*s, PatchPiece::residual);
    REQUIRE(steps);
    const std::vector<Tensor> pieces = clean_pieces(*s, *steps);
    REQUIRE(s->set_tgt_ids(corrupt));

    std::vector<double> full;
    for (int k = 0; k < 5; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        s->run_to(0);
        s->run_all();
        full.push_back(seconds_since(t0));
    }
    std::sort(full.begin(), full.end());
    const auto t0 = std::chrono::steady_clock::now();
    auto grid = patch_grid(*s, PatchPiece::residual, pieces, metric, clean_value);
    const double rows = seconds_since(t0);
    REQUIRE(grid);
    const double cells = static_cast<double>(grid->rows * grid->cols);
    std::printf("residual grid %lld x %lld by row re-runs: %.1f s; one full pass (median of 5): %.3f s, x %.0f = %.1f s\n",
                static_cast<long long>(grid->rows), static_cast<long long>(grid->cols), rows, full[2], cells,
                full[2] * cells);
    CHECK(rows < full[2] * cells);
}
