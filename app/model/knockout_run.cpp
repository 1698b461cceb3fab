// run_knockout (knockout_run.h): KnockoutTool's grid for one request.
#include "knockout_run.h"

namespace attnlab::gui {

KnockoutRunResult run_knockout(const KnockoutRequest& r, const RunReporter& reporter) {
    KnockoutRunResult out;
    auto tool = KnockoutTool::create(r.config, r.weights, r.inputs, r.metric);
    if (!tool)
        out.grid = tool.error();
    else
        out.grid = tool->grid(r.site, reporter.progress);
    return out;
}

}  // namespace attnlab::gui
