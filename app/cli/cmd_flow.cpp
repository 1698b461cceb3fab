// attnlab-cli flow: the contribution graph (core/analysis/contribution_graph, the LLM Transparency Tool's
// information flow routes) of one token: every edge into the token's residual stream, back through the layers,
// whose share is above the threshold (renormalised after it), through the app model's ContributionTool.
#include "cli_common.h"
#include "commands.h"
#include "contribution_tool.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace attnlab::cli {

namespace {

nlohmann::json or_null(int v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); }

// What node (block, ·) is the stream after: "embeddings", "attention", "cross_attention" or "ffn".
const char* after_of(const ContributionShares& s, int block) {
    if (block < 0) return "embeddings";
    const FlowBlock& b = s.blocks[static_cast<size_t>(block)];
    if (b.kind == FlowBlockKind::ffn) return "ffn";
    return b.use == AttentionUse::cross ? "cross_attention" : "attention";
}

nlohmann::json to_json(const gui::ContributionTool& tool) {
    const ContributionShares& s = tool.shares();
    const FlowRoute& r = tool.route();
    nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
    for (const FlowNode& n : r.nodes)
        nodes.push_back({{"block", n.block},
                         {"layer", n.block < 0 ? nlohmann::json(nullptr) : nlohmann::json(tool.block(n.block).layer)},
                         {"after", after_of(s, n.block)},
                         {"position", n.position}});
    for (const FlowEdge& e : r.edges)
        edges.push_back({{"kind", to_string(e.kind)},
                         {"block", e.block},
                         {"layer", e.layer},
                         {"head", or_null(e.head)},
                         {"from", e.from},
                         {"to", e.to},
                         {"share", e.share}});
    return {{"stack", s.stack == Stack::encoder ? "encoder" : "decoder"},
            {"token", r.token},
            {"threshold", r.threshold},
            {"nodes", nodes},
            {"edges", edges}};
}

void print_table(const gui::ContributionTool& tool) {
    const FlowRoute& r = tool.route();
    std::printf("contribution graph of position %d at threshold %g: %zu nodes, %zu edges\n", r.token, r.threshold,
                r.nodes.size(), r.edges.size());
    std::printf("%-6s %-16s %6s %6s %6s %10s\n", "layer", "edge", "head", "from", "to", "share");
    for (const FlowEdge& e : r.edges) {
        const std::string head = e.head < 0 ? "-" : std::to_string(e.head);
        std::printf("%-6d %-16s %6s %6d %6d %10.4f\n", e.layer, to_string(e.kind), head.c_str(), e.from, e.to, e.share);
    }
}

}  // namespace

int run_flow(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert({"token", "threshold"});
    if (auto err = parse_args(argv, {flags, {"json"}, 1}, args)) return fail("flow: " + *err, kExitUsage);
    if (!args.get("token"))
        return fail("flow: missing --token POS (the position whose stream the graph ends in)", kExitUsage);
    const auto token = integer_flag(args, "token", 0, 0, std::numeric_limits<int>::max());
    if (!token) return fail("flow: --token takes a position, a whole number of at least 0", kExitUsage);
    double threshold = gui::ContributionChoice{}.threshold;
    if (const auto given = args.get("threshold")) {
        char* end = nullptr;
        threshold = std::strtod(given->c_str(), &end);
        if (given->empty() || *end != '\0' || !(threshold >= 0.0 && threshold <= 1.0))
            return fail("flow: --threshold takes a number from 0 to 1, not '" + *given + "'", kExitUsage);
    }
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    stepper->run_all();
    gui::ContributionTool tool;
    tool.update(*stepper, {static_cast<int>(*token), threshold});
    if (!tool.ready()) return fail("flow: " + tool.error(), kExitBadInput);
    if (args.has("json"))
        std::printf("%s\n", to_json(tool).dump().c_str());
    else
        print_table(tool);
    return 0;
}

}  // namespace attnlab::cli
