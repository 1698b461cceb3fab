// attnlab-cli attribute: direct logit attribution (core/analysis/logit_attribution): one logit, or the difference
// of two, at one position, split exactly into the share of every component of the residual stream.
#include "analysis/logit_attribution.h"
#include "cli_common.h"
#include "commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

namespace attnlab::cli {

namespace {

nlohmann::json or_null(int v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); }

nlohmann::json to_json(const LogitAttribution& a) {
    nlohmann::json components = nlohmann::json::array();
    for (const AttributionComponent& c : a.components)
        components.push_back({{"name", c.name},
                              {"kind", to_string(c.kind)},
                              {"layer", or_null(c.layer)},
                              {"head", or_null(c.head)},
                              {"source", or_null(c.source)},
                              {"value", c.value}});
    return {{"metric", a.metric.to_string()},
            {"total", a.total},
            {"metric_from_logits", a.metric_value},
            {"components", components}};
}

void print_table(const LogitAttribution& a, size_t top) {
    std::vector<size_t> order(a.components.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&a](size_t x, size_t y) {
        return std::fabs(a.components[x].value) > std::fabs(a.components[y].value);
    });
    const size_t shown = std::min(top, order.size());
    std::printf("%s: the %zu largest of %zu components by |share|\n", a.metric.to_string().c_str(), shown,
                a.components.size());
    std::printf("%-44s %-16s %12s\n", "component", "kind", "share");
    for (size_t k = 0; k < shown; ++k) {
        const AttributionComponent& c = a.components[order[k]];
        std::printf("%-44s %-16s %12.6f\n", c.name.c_str(), to_string(c.kind), c.value);
    }
    std::printf("total (sum of the shares)  %.6f\n", a.total);
    std::printf("metric from the logits     %.6f\n", a.metric_value);
    std::printf("difference                 %.3g\n", a.total - a.metric_value);
}

}  // namespace

int run_attribute(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert({"metric", "top"});
    if (auto err = parse_args(argv, {flags, {"json"}, 1}, args)) return fail("attribute: " + *err, kExitUsage);
    if (!args.get("metric")) return fail("attribute: missing --metric (logit:A@POS or logit-diff:A,B@POS)", kExitUsage);
    auto metric = AttributionMetric::parse(*args.get("metric"));
    if (!metric) return fail("attribute: " + metric.error().message, kExitUsage);
    const auto top = integer_flag(args, "top", 20, 1, std::numeric_limits<int>::max());
    if (!top) return fail("attribute: --top takes a whole number of at least 1", kExitUsage);
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    stepper->run_all();
    auto attribution = attribute_logits(*stepper, *metric);
    if (!attribution) return fail("attribute: " + attribution.error().message, kExitBadInput);
    if (args.has("json"))
        std::printf("%s\n", to_json(*attribution).dump().c_str());
    else
        print_table(*attribution, static_cast<size_t>(*top));
    return 0;
}

}  // namespace attnlab::cli
