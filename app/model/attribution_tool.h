// The Output view's "Why this output?", without ImGui: the direct logit attribution of one metric
// (core/analysis/logit_attribution.h), kept between frames and recomputed only when the logits' trace version or
// the chosen metric changes, and what the view draws from it: the attention × head grid (each head's share summed
// over its source positions), one head's shares per source position, the FFNs' and biases' shares per layer, the
// check (Σ shares against the metric), and the tokens a head or an FFN pushes up and down
// (core/analysis/component_tokens.h), kept per component until the trace changes.
#pragma once

#include "analysis/component_tokens.h"
#include "analysis/logit_attribution.h"
#include "stepper.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// What the view picked; -1 is the default: A the most probable token at the position, B the runner-up, the
// position the last one.
struct AttributionChoice {
    AttributionMetricKind kind = AttributionMetricKind::logit;
    int token = -1;
    int other = -1;
    int position = -1;
    bool operator==(const AttributionChoice&) const = default;
};

// Each attention of the output stack (a row: its layer, self before cross) × each head: the head's share summed
// over its source positions.
struct HeadGrid {
    std::vector<AttentionSite> rows;
    int heads = 0;
    std::vector<double> total;  // (rows, heads), row-major
    double max_abs = 0.0;       // the largest |total|, for a colour scale (0 when every head writes nothing)

    double at(size_t row, int head) const { return total[row * static_cast<size_t>(heads) + static_cast<size_t>(head)]; }
};

// The shares that are not heads, per layer of the output stack (L,), and those outside the layers.
struct LayerShares {
    std::vector<double> ffn;
    std::vector<double> attention_bias;  // the layer's attentions' output biases
    std::vector<double> norm_bias;       // the layer's norms' β (post-LN)
    double embeddings = 0.0;
    double end_bias = 0.0;  // the final norm's β, BERT's head transform and norm biases, the unembedding's bias
};

class AttributionTool {
public:
    // Recomputes when the logits' version or `choice` changed since the last call (and returns true then); a call
    // otherwise costs nothing. Before the logits exist, or for a choice out of range: error() says why.
    bool update(const Stepper& stepper, const AttributionChoice& choice);

    const std::string& error() const { return error_; }
    bool ready() const { return error_.empty() && attribution_.has_value(); }
    const AttributionMetric& metric() const { return attribution_->metric; }  // ready(): the defaults resolved
    const LogitAttribution& attribution() const { return *attribution_; }
    const HeadGrid& grid() const { return grid_; }
    const LayerShares& layers() const { return layers_; }
    // One head's shares per source position j = 0 … (the keys any head of its attention reads); all 0 for a head
    // switched off, empty for an attention not in the grid.
    std::vector<double> per_source(const AttentionSite& site, int head) const;
    // The head with the largest |share|: (row, head) of the grid, or nullopt when the grid is empty.
    std::optional<std::pair<size_t, int>> strongest_head() const;
    // The 5 tokens the component pushes up and the 5 it pushes down at the metric's position; computed once per
    // component until the trace changes.
    const Result<ComponentTokens>& tokens(const Stepper& stepper, const ComponentRef& component);

private:
    uint64_t logits_version_ = 0;
    AttributionChoice choice_;
    std::string error_;
    std::optional<LogitAttribution> attribution_;
    HeadGrid grid_;
    LayerShares layers_;
    std::map<std::tuple<bool, int, int, int, int>, Result<ComponentTokens>> tokens_;

    void derive(const ModelConfig& config);
};

// The metric `choice` names on these logits (N, V): the defaults resolved; an error for a position or token out of
// range.
Result<AttributionMetric> resolve_metric(const Tensor& logits, const AttributionChoice& choice);

}  // namespace attnlab::gui
