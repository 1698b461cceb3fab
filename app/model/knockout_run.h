// KnockoutRun: attention knockout's grid (knockout_tool.h) off the window's thread (latest_request_run.h). A request
// (the model, the inputs, the metric, the attention, layer and head) gives the metric and every edge's change. A
// request replaced or cancelled while it runs stops at its grid's next edge, its result dropped.
#pragma once

#include "knockout_tool.h"
#include "latest_request_run.h"

#include <cstdint>

namespace attnlab::gui {

struct KnockoutRequest {
    ModelConfig config;
    Weights weights;  // shared, immutable tensors: a copy copies pointers
    ForwardInputs inputs;
    AttributionMetric metric;
    KnockoutSite site;
};

struct KnockoutRunResult {
    uint64_t serial = 0;  // the request it answers (request()'s number)
    Result<KnockoutGrid> grid = Error{"not run"};
};

// One request's work: the tool on the request's inputs, then its grid, counting the edges.
KnockoutRunResult run_knockout(const KnockoutRequest& request, const RunReporter& reporter);

class KnockoutRun : public LatestRequestRun<KnockoutRequest, KnockoutRunResult> {
public:
    explicit KnockoutRun(WorkMode mode = WorkMode::own_thread) : LatestRequestRun(run_knockout, mode) {}
};

}  // namespace attnlab::gui
