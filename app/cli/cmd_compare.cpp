// attnlab-cli compare: two traces on the same input (two models or checkpoints, or one model
// with heads ablated in the second run) and, step by step, how far apart their tensors are.
// Run B is set up by core's make_run_b (analysis/run_b.h), as the app's compare tool does.
#include "analysis/run_b.h"
#include "analysis/trace_compare.h"
#include "cli_common.h"
#include "commands.h"
#include "forward/step_path.h"
#include "hf/open_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace attnlab::cli {

namespace {

struct Ablation {
    std::string attention;  // "decoder.layers.1.self_attn"
    int head = 0;
};

// "decoder.layers.1.self_attn:2,encoder.layers.0.self_attn:0"
std::optional<std::vector<Ablation>> parse_ablations(const std::string& text) {
    std::vector<Ablation> out;
    for (size_t at = 0; at <= text.size();) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        const size_t colon = item.rfind(':');
        if (colon == std::string::npos || colon == 0) return std::nullopt;
        const auto head = parse_integer(item.substr(colon + 1));
        if (!head || *head < 0) return std::nullopt;
        out.push_back({item.substr(0, colon), static_cast<int>(*head)});
        at = comma + 1;
    }
    return out;
}

bool same_tokens(const std::optional<Vocab>& a, const std::optional<Vocab>& b) {
    return a.has_value() == b.has_value() && (!a || a->tokens() == b->tokens());
}

// Flat index -> "[2, 0, 5]" in `shape`.
std::string index_string(int64_t flat, const Shape& shape) {
    std::vector<int64_t> index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = flat % shape[d];
        flat /= shape[d];
    }
    std::string s = "[";
    for (size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
    return s + "]";
}

int print_step(const Stepper& a, const Stepper& b, const std::string& path, int top, bool json) {
    auto d = diff_step(a, b, path);
    if (!d) return fail("compare: " + d.error().message, kExitBadInput);
    const Tensor& x = *a.output(path);
    const Tensor& y = *b.output(path);
    std::vector<int64_t> order(d->difference.data.size());
    std::iota(order.begin(), order.end(), 0);
    const size_t n = std::min(order.size(), static_cast<size_t>(top));
    const auto magnitude = [&](int64_t i) { return std::abs(d->difference.data[static_cast<size_t>(i)]); };
    std::partial_sort(
        order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
        [&](int64_t i, int64_t j) { return magnitude(i) > magnitude(j) || (magnitude(i) == magnitude(j) && i < j); });
    if (json) {
        nlohmann::json j = {
            {"step", path},
            {"shape", x.shape},
            {"max_abs", d->max_abs},
            {"rms", d->rms},
            {"relative", d->relative},
            {"difference", std::vector<float>(d->difference.data.data(), d->difference.data.data() + x.numel())}};
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    std::printf("%s %s: B - A  max |d| %.6g  rms %.6g  relative %.6g\n", path.c_str(), shape_string(x.shape).c_str(),
                static_cast<double>(d->max_abs), static_cast<double>(d->rms), static_cast<double>(d->relative));
    std::printf("largest differences:\n%16s %14s %14s %14s\n", "index", "A", "B", "B - A");
    for (size_t r = 0; r < n; ++r) {
        const auto i = static_cast<size_t>(order[r]);
        std::printf("%16s %+14.6g %+14.6g %+14.6g\n", index_string(order[r], x.shape).c_str(),
                    static_cast<double>(x.data[i]), static_cast<double>(y.data[i]),
                    static_cast<double>(d->difference.data[i]));
    }
    return 0;
}

int print_table(const Stepper& a, const Stepper& b, bool json) {
    nlohmann::json rows = nlohmann::json::array();
    if (!json) std::printf("%-44s %-16s %12s %12s %12s\n", "step", "shape", "max |B-A|", "rms", "relative");
    std::optional<std::string> first_change;
    for (const Step& step : a.steps()) {
        auto d = diff_step(a, b, step.path);
        const std::string shape = shape_string(a.output(step.path)->shape);
        if (!d) {
            if (json)
                rows.push_back({{"step", step.path}, {"error", d.error().message}});
            else
                std::printf("%-44s %-16s  (%s)\n", step.path.c_str(), shape.c_str(), d.error().message.c_str());
            continue;
        }
        if (!first_change && d->max_abs > 0.0f) first_change = step.path;
        if (json)
            rows.push_back({{"step", step.path},
                            {"shape", a.output(step.path)->shape},
                            {"max_abs", d->max_abs},
                            {"rms", d->rms},
                            {"relative", d->relative}});
        else
            std::printf("%-44s %-16s %12.4g %12.4g %12.4g\n", step.path.c_str(), shape.c_str(),
                        static_cast<double>(d->max_abs), static_cast<double>(d->rms), static_cast<double>(d->relative));
    }
    if (json) {
        std::printf("%s\n", rows.dump().c_str());
        return 0;
    }
    std::printf(first_change ? "the traces first differ at %s\n" : "the traces are identical%s\n",
                first_change.value_or("").c_str());
    return 0;
}

}  // namespace

int run_compare(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert({"ablate", "step", "top"});
    if (auto err = parse_args(argv, {flags, {"json"}, 1, 1}, args)) return fail("compare: " + *err, kExitUsage);
    if (args.positional.size() == 1 && !args.has("ablate"))
        return fail("compare: give a second model, or --ablate ATTENTION:HEAD to compare the model with itself",
                    kExitUsage);
    std::vector<Ablation> ablations;
    if (auto text = args.get("ablate")) {
        auto parsed = parse_ablations(*text);
        if (!parsed) return fail("compare: --ablate takes a list like decoder.layers.1.self_attn:2", kExitUsage);
        ablations = std::move(*parsed);
    }
    const auto top = integer_flag(args, "top", 8, 1, 100000);
    if (!top) return fail("compare: --top takes an integer from 1 to 100000", kExitUsage);

    Model model_a;
    int code = 0;
    auto a = open_stepper(args, &model_a, &code);
    if (!a) return fail(a.error().message, code);
    Model model_b = model_a;  // tensors are shared, not copied
    if (args.positional.size() == 2) {
        auto loaded = open_model(args.positional[1]);
        if (!loaded) return fail(loaded.error().message, kExitBadInput);
        model_b = std::move(loaded->model);
    }
    std::vector<AttentionHead> extra;
    if (!ablations.empty()) {
        const std::vector<Step> b_steps = build_forward_steps(model_b.config);
        for (const Ablation& ablation : ablations) {
            const auto site = find_attention(b_steps, ablation.attention);
            if (!site)
                return fail("compare: '" + ablation.attention + "' is not an attention of model B", kExitBadInput);
            extra.push_back({*site, ablation.head});
        }
    }
    auto b = make_run_b(a->inputs(), model_b.config, model_b.weights, extra);
    if (!b) return fail("compare: " + b.error().message, kExitBadInput);
    if (!same_tokens(model_a.src_vocab, model_b.src_vocab) || !same_tokens(model_a.tgt_vocab, model_b.tgt_vocab))
        std::fprintf(stderr, "attnlab-cli: note: the models' vocabularies differ; B reads A's token ids as they are\n");
    if (b->dropped() > 0)
        std::fprintf(stderr,
                     "attnlab-cli: note: model B has no place for %d of A's mask cells and %d of its switched-off "
                     "heads; B runs without them\n",
                     b->dropped_mask_cells, b->dropped_heads);
    Stepper& run_b = b->stepper;
    a->run_all();
    run_b.run_all();
    if (auto step = args.get("step")) return print_step(*a, run_b, *step, static_cast<int>(*top), args.has("json"));
    return print_table(*a, run_b, args.has("json"));
}

}  // namespace attnlab::cli
