// PatchingRun: activation patching's grids (patching_tool.h) off the window's thread (latest_request_run.h). A
// request (the model, the clean and corrupted inputs, the metric, the piece) gives both runs' metric, the exact grid
// and its gradient estimate (attribution patching) with the Pearson correlation of the two. A request replaced or
// cancelled while it runs stops at its exact grid's next cell, or after its current stage, its result dropped.
#pragma once

#include "latest_request_run.h"
#include "patching_tool.h"

#include <cstdint>
#include <limits>
#include <string>

namespace attnlab::gui {

struct PatchingRequest {
    ModelConfig config;
    Weights weights;  // shared, immutable tensors: a copy copies pointers
    ForwardInputs clean, corrupt;
    AttributionMetric metric;
    PatchPiece piece = PatchPiece::residual;
};

struct PatchingResult {
    uint64_t serial = 0;                // the request it answers (request()'s number)
    std::string error;                  // the runs could not be made (one line); then no grids
    double clean = 0.0, corrupt = 0.0;  // the metric on each run
    Result<PatchGrid> exact = Error{"not run"};
    Result<PatchGrid> gradient = Error{"not run"};                  // refused for some metrics (one line)
    double correlation = std::numeric_limits<double>::quiet_NaN();  // of the two grids; NaN without both
};

// One request's work: the two runs, then (while still wanted) the exact grid, counting its cells, and the estimate.
PatchingResult run_patching(const PatchingRequest& request, const RunReporter& reporter);

class PatchingRun : public LatestRequestRun<PatchingRequest, PatchingResult> {
public:
    explicit PatchingRun(WorkMode mode = WorkMode::own_thread) : LatestRequestRun(run_patching, mode) {}
};

}  // namespace attnlab::gui
