// run_patching (patching_run.h): PatchingTool's runs and grids for one request.
#include "patching_run.h"

namespace attnlab::gui {

PatchingResult run_patching(const PatchingRequest& r, const RunReporter& reporter) {
    PatchingResult out;
    auto tool = PatchingTool::create(r.config, r.weights, r.clean, r.corrupt, r.metric);
    if (!tool) {
        out.error = tool.error().message;
        return out;
    }
    if (!reporter.wanted()) return out;
    out.clean = tool->clean_metric();
    out.corrupt = tool->corrupt_metric();
    out.exact = tool->grid(r.piece, PatchMethod::exact, reporter.progress);
    if (reporter.wanted()) out.gradient = tool->grid(r.piece, PatchMethod::gradient);
    if (out.exact && out.gradient) out.correlation = grid_correlation(*out.exact, *out.gradient);
    return out;
}

}  // namespace attnlab::gui
