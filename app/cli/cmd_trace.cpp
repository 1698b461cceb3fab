// attnlab-cli trace / steps: run the forward pass step by step and write or list the steps.
#include "cli_common.h"
#include "commands.h"
#include "forward/step_path.h"
#include "io/trace_file.h"
#include "weights_precision.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace attnlab::cli {

namespace {

nlohmann::json step_json(const Step& s) {
    return {{"path", s.path},
            {"title", s.title},
            {"formula", s.formula},
            {"inputs", step_paths(s.inputs)},
            {"params", s.params}};
}

// __metadata__["non_finite"]: where NaN/Inf first appears and how many values each step holds,
// {"first_step": path or null, "count": n, "steps": {path: n, ...}} (steps with n > 0 only).
nlohmann::json non_finite_json(const Stepper& stepper) {
    nlohmann::json counts = nlohmann::json::object();
    for (size_t i = 0; i < stepper.cursor(); ++i) {
        const Step& s = stepper.step(i);
        if (const int64_t n = stepper.run_facts(s.path)->non_finite; n > 0) counts[s.path] = n;
    }
    const auto first = stepper.first_non_finite_step();
    nlohmann::json j = {{"first_step", nullptr}, {"count", 0}, {"steps", counts}};
    if (first) {
        const std::string& path = stepper.step(*first).path;
        j["first_step"] = path;
        j["count"] = stepper.run_facts(path)->non_finite;
    }
    return j;
}

}  // namespace

int run_trace(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert("out");
    if (auto err = parse_args(argv, {flags, {}, 1}, args)) return fail("trace: " + *err, kExitUsage);
    if (!args.get("out")) return fail("trace: missing --out TRACE.safetensors", kExitUsage);
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    stepper->run_all();

    io::SafetensorsFile trace = io::trace_to_safetensors(*stepper);
    trace.metadata["non_finite"] = non_finite_json(*stepper).dump();
    if (auto st = io::write_safetensors(*args.get("out"), trace); !st) return fail(st.error().message, kExitBadInput);
    std::printf("wrote %s: %zu steps\n", args.get("out")->c_str(), stepper->size());
    if (bf16_products() == Bf16Products::dot_bf16 && weights_precision(model.weights).bf16_tensors > 0)
        std::printf("BF16 products: %s\n", describe(Bf16Products::dot_bf16).c_str());
    // Still exit 0: the trace shows where the values broke, which is what the user needs.
    if (const auto first = stepper->first_non_finite_step()) {
        const std::string& path = stepper->step(*first).path;
        const int64_t n = stepper->run_facts(path)->non_finite;
        std::fprintf(stderr, "attnlab-cli: warning: NaN/Inf first appears in %s (%lld value%s)\n", path.c_str(),
                     static_cast<long long>(n), n == 1 ? "" : "s");
    }
    for (const Step& s : stepper->steps()) {
        const auto& rows = stepper->run_facts(s.path)->fully_masked_rows;
        if (!rows.empty())
            std::printf("note: %s: %zu query row(s) have every key masked; their weights are 0\n", s.path.c_str(),
                        rows.size());
    }
    return 0;
}

int run_steps(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {kInputFlags, {"json"}, 1}, args)) return fail("steps: " + *err, kExitUsage);
    Model model;
    int code = 0;
    // The step list depends only on the config; without inputs a one-token source stands in.
    Args with_default = args;
    if (!args.get("src") && !args.get("src-ids") && !args.get("tgt") && !args.get("tgt-ids"))
        with_default.values["src-ids"] = "0";
    auto stepper = open_stepper(with_default, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    if (args.has("json")) {
        nlohmann::json steps = nlohmann::json::array();
        for (const Step& s : stepper->steps()) steps.push_back(step_json(s));
        std::printf("%s\n", steps.dump(2).c_str());
        return 0;
    }
    for (size_t i = 0; i < stepper->size(); ++i) {
        const Step& s = stepper->step(i);
        std::string inputs;
        for (const StepId& in : s.inputs) inputs += (inputs.empty() ? "" : ", ") + step_path(in);
        std::printf("%4zu  %-44s %s\n      %s\n", i, s.path.c_str(), s.title.c_str(), s.formula.c_str());
        if (!inputs.empty()) std::printf("      reads: %s\n", inputs.c_str());
    }
    return 0;
}

}  // namespace attnlab::cli
