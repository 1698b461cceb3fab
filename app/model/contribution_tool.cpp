#include "contribution_tool.h"

#include <map>
#include <tuple>

namespace attnlab::gui {

namespace {

// The route's edges per drawn line: attention edges summed over heads per (block, from, to).
std::vector<FlowLine> lines_of(const FlowRoute& route) {
    std::vector<FlowLine> lines;
    std::map<std::tuple<int, int, int, int>, size_t> at;  // (kind, block, from, to) -> line
    for (const FlowEdge& e : route.edges) {
        const auto key = std::make_tuple(static_cast<int>(e.kind), e.block, e.from, e.to);
        auto it = at.find(key);
        if (it == at.end()) {
            it = at.emplace(key, lines.size()).first;
            lines.push_back({e.kind, e.block, e.layer, e.from, e.to});
        }
        FlowLine& line = lines[it->second];
        line.share += e.share;
        if (e.head >= 0 && e.share > line.top_share) {
            line.top_head = e.head;
            line.top_share = e.share;
        }
    }
    return lines;
}

}  // namespace

Stack flow_stack(const ModelConfig& config) {
    return config.arch == Arch::encoder_only ? Stack::encoder : Stack::decoder;
}

bool ContributionTool::update(const Stepper& stepper, const ContributionChoice& choice) {
    const Stack stack = flow_stack(stepper.config());
    const TraceEntry* out = stepper.entry(StepId::of(StepKind::stack_output, stack));
    const uint64_t version = out ? out->version : 0;
    const bool new_trace = !computed_ || version != version_;
    if (!new_trace && choice == choice_) return false;
    computed_ = true;
    version_ = version;
    choice_ = choice;
    error_.clear();
    route_.reset();
    lines_.clear();
    if (new_trace) {
        shares_.reset();
        if (!out) {
            error_ = "the forward pass has not reached the end of the stack yet";
            return true;
        }
        auto shares = contribution_shares(stepper, stack);
        if (!shares) {
            error_ = shares.error().message;
            return true;
        }
        shares_ = std::move(*shares);
    }
    if (!shares_) {
        error_ = "the forward pass has not reached the end of the stack yet";
        return true;
    }
    const int64_t token = choice.token < 0 ? shares_->n_positions - 1 : choice.token;
    auto route = flow_route(*shares_, token, choice.threshold);
    if (!route) {
        error_ = route.error().message;
        return true;
    }
    route_ = std::move(*route);
    lines_ = lines_of(*route_);
    return true;
}

}  // namespace attnlab::gui
