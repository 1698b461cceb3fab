// The Residual view's contribution graph, without ImGui: the LLM Transparency Tool's contribution shares of the
// output stack (core/analysis/contribution_graph.h), recomputed only when the stack's trace version changes, and
// the route for a chosen token and threshold, recomputed when either changes; plus the lines the view draws (a
// route's attention edges summed over heads per query → key, as the tool draws them, with the strongest head).
#pragma once

#include "analysis/contribution_graph.h"
#include "stepper.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// What the view picked; token −1: the last position. The threshold's default is the tool's slider default.
struct ContributionChoice {
    int token = -1;
    double threshold = 0.04;
    bool operator==(const ContributionChoice&) const = default;
};

// One drawn line into node (block, to) from node (block − 1, from) (a cross-attention's from: an encoder position).
struct FlowLine {
    FlowEdgeKind kind = FlowEdgeKind::residual;
    int block = 0;
    int layer = 0;
    int from = 0;
    int to = 0;
    double share = 0.0;  // Σ over the heads of the route's edges
    int top_head = -1;   // attention lines: the head with the largest share
    double top_share = 0.0;
};

// The stack the graph is drawn for: the one the output head reads (the decoder, or an encoder-only model's encoder).
Stack flow_stack(const ModelConfig& config);

class ContributionTool {
public:
    // Recomputes the shares when the stack's output version changed, the route when that or `choice` changed
    // (and returns true then); otherwise costs nothing. error() says why there is no route.
    bool update(const Stepper& stepper, const ContributionChoice& choice);

    const std::string& error() const { return error_; }
    bool ready() const { return error_.empty() && route_.has_value(); }
    const ContributionShares& shares() const { return *shares_; }  // ready()
    const FlowRoute& route() const { return *route_; }             // ready(): the token resolved
    const std::vector<FlowLine>& lines() const { return lines_; }  // ready()
    // Block b's layer and kind, for labels: "L1 attn", "L1 cross", "L1 FFN" are drawn from these.
    const FlowBlock& block(int b) const { return shares_->blocks.at(static_cast<size_t>(b)); }

private:
    uint64_t version_ = 0;
    ContributionChoice choice_;
    bool computed_ = false;
    std::string error_;
    std::optional<ContributionShares> shares_;
    std::optional<FlowRoute> route_;
    std::vector<FlowLine> lines_;
};

}  // namespace attnlab::gui
