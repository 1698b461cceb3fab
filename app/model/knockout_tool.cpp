#include "knockout_tool.h"

#include "analysis/activation_patching.h"

namespace attnlab::gui {

Result<KnockoutTool> KnockoutTool::create(const ModelConfig& config, Weights weights, const ForwardInputs& inputs,
                                          const AttributionMetric& metric) {
    auto stepper = Stepper::create(config, std::move(weights), inputs);
    if (!stepper) return stepper.error();
    stepper->run_all();
    auto value = attnlab::metric_value(*stepper, metric);
    if (!value) return value.error();
    return KnockoutTool(std::move(*stepper), metric, *value);
}

Result<KnockoutResult> KnockoutTool::edge(const KnockoutSite& site, int64_t query, int64_t key) {
    return knockout_edge(stepper_, site, query, key, metric_);
}

Result<KnockoutGrid> KnockoutTool::grid(const KnockoutSite& site, const GridProgress& progress) {
    return knockout_grid(stepper_, site, metric_, progress);
}

}  // namespace attnlab::gui
