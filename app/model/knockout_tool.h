// KnockoutTool: attention knockout (core/analysis/attention_knockout.h) for the app and the CLI: a run of its own
// (the model and inputs it was made from, run to the end), the metric on it, one edge's knockout and a whole
// layer's grid. Every knockout is undone at once, so the run stays the inputs' own: the user's mask and the
// session's stepper are never edited. Plain and headless: the GUI runs the grid off the window's thread through
// KnockoutRun (knockout_run.h); attnlab-cli calls the same class.
#pragma once

#include "analysis/attention_knockout.h"

namespace attnlab::gui {

class KnockoutTool {
public:
    // Runs `inputs` and reads the metric. One-line errors: bad inputs, a model without logits, a metric position
    // past the end or a token outside the vocabulary.
    static Result<KnockoutTool> create(const ModelConfig& config, Weights weights, const ForwardInputs& inputs,
                                       const AttributionMetric& metric);

    const AttributionMetric& metric() const { return metric_; }
    double metric_value() const { return value_; }  // without a knockout
    const Stepper& run() const { return stepper_; }

    Result<KnockoutResult> edge(const KnockoutSite& site, int64_t query, int64_t key);
    Result<KnockoutGrid> grid(const KnockoutSite& site, const GridProgress& progress = {});

private:
    KnockoutTool(Stepper stepper, AttributionMetric metric, double value)
        : stepper_(std::move(stepper)), metric_(metric), value_(value) {}

    Stepper stepper_;
    AttributionMetric metric_;
    double value_ = 0.0;
};

}  // namespace attnlab::gui
