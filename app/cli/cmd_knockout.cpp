// attnlab-cli knockout: attention knockout (core/analysis/attention_knockout.h through app/model/knockout_tool.h):
// one query -> key edge of one attention at one layer blocked, in one head or every head, and the metric's change;
// or every edge's change (--grid).
#include "cli_common.h"
#include "commands.h"
#include "knockout_tool.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

namespace attnlab::cli {

namespace {

// "Q,K" -> (Q, K).
std::optional<std::pair<int64_t, int64_t>> parse_edge(const std::string& text) {
    auto ids = parse_id_list(text);
    if (!ids || ids->size() != 2) return std::nullopt;
    return std::make_pair(static_cast<int64_t>((*ids)[0]), static_cast<int64_t>((*ids)[1]));
}

nlohmann::json head_json(int head) { return head < 0 ? nlohmann::json(nullptr) : nlohmann::json(head); }

nlohmann::json grid_values(const KnockoutGrid& g) {
    nlohmann::json rows = nlohmann::json::array();
    for (int64_t q = 0; q < g.rows; ++q) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t k = 0; k < g.cols; ++k)
            row.push_back(std::isnan(g.at(q, k)) ? nlohmann::json(nullptr) : nlohmann::json(g.at(q, k)));
        rows.push_back(row);
    }
    return rows;
}

void print_grid(const KnockoutGrid& g) {
    std::printf("metric %.6f; its change when the edge query -> key is blocked (. : masked already):\n", g.before);
    std::printf("%8s", "q \\ k");
    for (int64_t k = 0; k < g.cols; ++k) std::printf(" %8lld", static_cast<long long>(k));
    std::printf("\n");
    for (int64_t q = 0; q < g.rows; ++q) {
        std::printf("%8lld", static_cast<long long>(q));
        for (int64_t k = 0; k < g.cols; ++k) {
            if (std::isnan(g.at(q, k)))
                std::printf(" %8s", ".");
            else
                std::printf(" %8.4f", g.at(q, k));
        }
        std::printf("\n");
    }
}

}  // namespace

int run_knockout(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert({"metric", "attention", "layer", "head", "edge"});
    if (auto err = parse_args(argv, {flags, {"json", "grid"}, 1}, args)) return fail("knockout: " + *err, kExitUsage);
    if (!args.get("metric")) return fail("knockout: missing --metric (logit:A@POS, prob:A@POS or logit-diff:A,B@POS)", kExitUsage);
    auto metric = AttributionMetric::parse(*args.get("metric"), MetricKinds::any);
    if (!metric) return fail("knockout: " + metric.error().message, kExitUsage);
    if (!args.get("attention"))
        return fail("knockout: missing --attention (encoder-self, decoder-self or cross)", kExitUsage);
    auto use = parse_attention_use(*args.get("attention"));
    if (!use) return fail("knockout: " + use.error().message, kExitUsage);
    if (!args.get("layer")) return fail("knockout: missing --layer L", kExitUsage);
    const auto layer = integer_flag(args, "layer", 0, 0, std::numeric_limits<int>::max());
    if (!layer) return fail("knockout: --layer takes a whole number of at least 0", kExitUsage);
    const auto head = integer_flag(args, "head", -1, -1, std::numeric_limits<int>::max());
    if (!head) return fail("knockout: --head takes a head number (leave it out, or -1, for every head)", kExitUsage);
    if (args.has("edge") == args.has("grid")) return fail("knockout: give one of --edge Q,K and --grid", kExitUsage);
    std::optional<std::pair<int64_t, int64_t>> edge;
    if (args.has("edge") && !(edge = parse_edge(*args.get("edge"))))
        return fail("knockout: --edge takes two positions, query and key: Q,K", kExitUsage);

    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);  // checks the model and the inputs
    if (!stepper) return fail(stepper.error().message, code);
    auto tool = gui::KnockoutTool::create(model.config, model.weights, stepper->inputs(), *metric);
    if (!tool) return fail("knockout: " + tool.error().message, kExitBadInput);
    const KnockoutSite site{*use, static_cast<int>(*layer), static_cast<int>(*head)};
    nlohmann::json out = {{"metric", metric->to_string()},
                          {"attention", *args.get("attention")},
                          {"layer", site.layer},
                          {"head", head_json(site.head)}};
    if (edge) {
        auto r = tool->edge(site, edge->first, edge->second);
        if (!r) return fail("knockout: " + r.error().message, kExitBadInput);
        out["edge"] = {edge->first, edge->second};
        out["before"] = r->before;
        out["after"] = r->after;
        out["change"] = r->change();
        out["already_masked"] = r->already_masked;
        if (!args.has("json")) {
            std::printf("%s: %.6f -> %.6f (change %+.6f)%s\n", metric->to_string().c_str(), r->before, r->after,
                        r->change(), r->already_masked ? "; the mask already blocks this edge" : "");
            return 0;
        }
    } else {
        auto g = tool->grid(site);
        if (!g) return fail("knockout: " + g.error().message, kExitBadInput);
        out["before"] = g->before;
        out["rows"] = g->rows;
        out["cols"] = g->cols;
        out["values"] = grid_values(*g);
        if (!args.has("json")) {
            print_grid(*g);
            return 0;
        }
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

}  // namespace attnlab::cli
