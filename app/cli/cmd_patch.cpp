// attnlab-cli patch: activation patching (core/analysis/activation_patching.h through app/model/patching_tool.h):
// the corrupted input run with one piece of the clean run put back, for every layer × position (or layer × head),
// and the metric read off each patched run; or its estimate from one backward pass (--approx gradient).
#include "cli_common.h"
#include "commands.h"
#include "hf/open_model.h"
#include "patching_tool.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace attnlab::cli {

namespace {

// The forward inputs of one run: --clean/--clean-ids (prefix "clean") or --corrupt/--corrupt-ids as the source
// of a model with an encoder, as the prompt of a decoder-only model; --tgt/--tgt-ids pass through.
Result<ForwardInputs> run_inputs(const Model& model, const Args& args, const std::string& prefix, int* code) {
    Args one;
    const std::string seq = model.config.has_encoder() ? "src" : "tgt";
    if (auto text = args.get(prefix)) one.values[seq] = *text;
    if (auto ids = args.get(prefix + "-ids")) one.values[seq + "-ids"] = *ids;
    if (model.config.has_encoder())
        for (const char* flag : {"tgt", "tgt-ids", "src-types"})
            if (auto v = args.get(flag)) one.values[flag] = *v;
    auto request = inputs_from_args(model, one, code);
    if (!request) return request.error();
    if (!request->unknown_words.empty())
        return Error{"--" + prefix + ": '" + request->unknown_words.front() + "' is not in the vocabulary"};
    return request->inputs;
}

nlohmann::json grid_json(const PatchGrid& g, bool normalised) {
    nlohmann::json rows = nlohmann::json::array();
    for (int64_t r = 0; r < g.rows; ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t c = 0; c < g.cols; ++c) row.push_back(normalised ? g.normalised(r, c) : g.at(r, c));
        rows.push_back(row);
    }
    return rows;
}

void print_table(const PatchGrid& g, const char* method) {
    const char* axes = by_head(g.piece)      ? "layer x head"
                       : in_encoder(g.piece) ? "layer x source position"
                                             : "layer x position";
    std::printf("%s patching of %s (%s): clean %.6f, corrupt %.6f\n", to_string(g.piece), axes, method, g.clean,
                g.corrupt);
    std::printf("normalised (patched - corrupt) / (clean - corrupt):\n");
    for (int64_t r = 0; r < g.rows; ++r) {
        std::printf("layer %3lld", static_cast<long long>(r));
        for (int64_t c = 0; c < g.cols; ++c) std::printf(" %7.3f", g.normalised(r, c));
        std::printf("\n");
    }
}

}  // namespace

int run_patch(const Argv& argv) {
    Args args;
    const std::set<std::string> flags = {"clean",   "clean-ids", "corrupt", "corrupt-ids", "tgt",
                                         "tgt-ids", "src-types", "metric",  "what",        "approx"};
    if (auto err = parse_args(argv, {flags, {"json"}, 1}, args)) return fail("patch: " + *err, kExitUsage);
    for (const char* run : {"clean", "corrupt"})
        if (args.has(run) == args.has(std::string(run) + "-ids"))
            return fail(std::string("patch: give one of --") + run + " TEXT and --" + run + "-ids IDS", kExitUsage);
    if (!args.get("metric"))
        return fail("patch: missing --metric (logit:A@POS, prob:A@POS or logit-diff:A,B@POS)", kExitUsage);
    auto metric = AttributionMetric::parse(*args.get("metric"), MetricKinds::any);
    if (!metric) return fail("patch: " + metric.error().message, kExitUsage);
    if (!args.get("what"))
        return fail(
            "patch: missing --what (residual, attn-out, ffn-out, heads; an encoder-decoder's enc-residual, "
            "enc-attn-out, enc-ffn-out, enc-heads, cross-out, cross-heads)",
            kExitUsage);
    auto piece = parse_patch_piece(*args.get("what"));
    if (!piece) return fail("patch: " + piece.error().message, kExitUsage);
    const auto approx = args.get("approx");
    if (approx && *approx != "gradient") return fail("patch: --approx takes 'gradient'", kExitUsage);

    auto loaded = open_model(args.positional.at(0));
    if (!loaded) return fail(loaded.error().message, kExitBadInput);
    const Model& model = loaded->model;
    int code = kExitBadInput;
    auto clean = run_inputs(model, args, "clean", &code);
    if (!clean) return fail("patch: " + clean.error().message, code);
    auto corrupt = run_inputs(model, args, "corrupt", &code);
    if (!corrupt) return fail("patch: " + corrupt.error().message, code);
    auto tool = gui::PatchingTool::create(model.config, model.weights, *clean, *corrupt, *metric);
    if (!tool) return fail("patch: " + tool.error().message, kExitBadInput);
    auto grid = tool->grid(*piece, approx ? gui::PatchMethod::gradient : gui::PatchMethod::exact);
    if (!grid) return fail("patch: " + grid.error().message, kExitBadInput);
    // Beside the exact grid, how well one backward pass estimates it.
    std::optional<double> agreement;
    if (!approx)
        if (auto estimate = tool->grid(*piece, gui::PatchMethod::gradient))
            agreement = grid_correlation(*grid, *estimate);

    if (args.has("json")) {
        nlohmann::json out = {{"metric", metric->to_string()},
                              {"what", to_string(*piece)},
                              {"method", approx ? "gradient" : "exact"},
                              {"clean", grid->clean},
                              {"corrupt", grid->corrupt},
                              {"rows", grid->rows},
                              {"cols", grid->cols},
                              {"values", grid_json(*grid, false)},
                              {"normalised", grid_json(*grid, true)}};
        if (agreement) out["gradient_correlation"] = *agreement;
        std::printf("%s\n", out.dump().c_str());
        return 0;
    }
    print_table(*grid, approx ? "gradient estimate" : "exact");
    if (agreement) std::printf("Pearson correlation with the gradient estimate: %.4f\n", *agreement);
    return 0;
}

}  // namespace attnlab::cli
