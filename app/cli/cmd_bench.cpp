// attnlab-cli bench [MODEL]: median time of the traced forward pass (every step computed, every
// output kept but the on-demand ones, step.h), measured in-process, of a random preset model or of a model file or Hugging Face
// folder on random ids; for a MODEL also the median time to open it; the process's peak resident
// memory. With --edits, also the median time of the re-run after appending the last token (the first after a pass,
// and again and again) and after changing the middle one (the stepper re-runs only the rows they reach). With --backward, also the backward
// pass of a loss of the logits (--loss, next-token by default; backward/backward_pass.h) on the forward pass run
// to its end: BackwardPass::create and run_all timed alone, and the forward and backward together. With
// --gemm-bound, the GEMM bound of that pass instead (gemm_bound.h): of the forward, or with --backward of the
// backward's products (timed in the same run as the forward's, whose sum is printed beside it). With --by-step,
// also each step's time, summed over the layers (step_profile.h). --keep chooses what the trace keeps
// (trace_keep.h: automatic, standard or checkpoints); the output names the policy in force and the trace's size.
#include "backward/backward_pass.h"
#include "cli_common.h"
#include "commands.h"
#include "gemm_bound.h"
#include "hf/open_model.h"
#include "io/file_bytes.h"
#include "parallel.h"
#include "step_profile.h"
#include "stepper.h"
#include "weights_precision.h"

#include <sys/resource.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>

namespace attnlab::cli {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// n random ids of a vocabulary of `vocab`, drawn from [first, vocab) and never pad_id.
std::vector<int> random_ids(std::mt19937& rng, long long n, int first, int vocab, int pad_id) {
    std::uniform_int_distribution<int> token(first, vocab - 1);
    std::vector<int> ids;
    while (static_cast<long long>(ids.size()) < n)
        if (const int id = token(rng); id != pad_id) ids.push_back(id);
    return ids;
}

struct OpenTimes {
    double first_ms = 0, median_ms = 0;
};

// Opens `path` `n_opens` times; the first open's model is kept in *model.
Result<OpenTimes> time_opens(const std::string& path, long long n_opens, Model* model) {
    std::vector<double> ms;
    for (long long i = 0; i < n_opens; ++i) {
        const auto t0 = Clock::now();
        auto loaded = open_model(path);
        ms.push_back(ms_since(t0));
        if (!loaded) return loaded.error();
        if (i == 0) *model = std::move(loaded->model);
    }
    const double first = ms.front();
    return OpenTimes{first, median_of(ms)};
}

// The most resident memory this process has held, mapped weights included (getrusage's ru_maxrss, in KiB on Linux).
double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

std::string json_string(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// `text` and spaces up to `width` characters (UTF-8 code points: "QKᵀ" is three).
std::string padded(const std::string& text, size_t width) {
    const auto chars = static_cast<size_t>(std::count_if(
        text.begin(), text.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
    return text + std::string(chars < width ? width - chars : 0, ' ');
}

// bench --gemm-bound: every product of the pass over S + T tokens, its time, the sum and its GFLOP/s. With
// `backward`, the backward's products (gemm_bound.h's backward_matmuls), the forward's timed in the same run and
// summed beside them (each distinct shape is timed once for both).
int print_gemm_bound(const std::string& name, const ModelConfig& c, long long S, long long T, bool backward,
                     bool json) {
    const std::vector<MatmulShape> forward = forward_matmuls(c, S, T);
    std::vector<MatmulShape> shapes = forward;
    if (backward) {
        const std::vector<MatmulShape> more = backward_matmuls(forward);
        shapes.insert(shapes.end(), more.begin(), more.end());
    }
    const GemmBound all = time_gemm_bound(shapes);
    GemmBound forward_bound, backward_bound;
    for (size_t i = 0; i < all.products.size(); ++i)
        (i < forward.size() ? forward_bound : backward_bound).add(all.products[i]);
    const GemmBound& bound = backward ? backward_bound : forward_bound;
    const char* pass = backward ? "backward" : "forward";
    if (json) {
        nlohmann::json products = nlohmann::json::array();
        for (const TimedMatmul& p : bound.products)
            products.push_back({{"what", p.shape.what},
                                {"m", p.shape.m},
                                {"k", p.shape.k},
                                {"n", p.shape.n},
                                {"count", p.shape.count},
                                {"b_is_weight", p.shape.b_is_weight},
                                {"ms_each", p.ms_each},
                                {"ms", p.ms_total()},
                                {"cached_ms_each", p.cached_ms_each},
                                {"split", to_string(p.split)},
                                {"kernel", to_string(p.kernel)}});
        std::printf(
            "{\"impl\": \"gemm bound\", \"pass\": \"%s\", \"model\": %s, \"src_len\": %lld, \"tgt_len\": %lld, "
            "\"threads\": %d, \"bound_ms\": %.3f, \"cached_bound_ms\": %.3f, \"gflop\": %.3f, \"gflops\": %.1f, "
            "\"peak_rss_mb\": %.1f",
            pass, json_string(name).c_str(), S, T, thread_count(), bound.ms, bound.cached_ms, bound.gflop,
            bound.gflops(), peak_rss_mb());
        if (backward)
            std::printf(", \"forward_bound_ms\": %.3f, \"forward_gflop\": %.3f, \"forward_backward_bound_ms\": %.3f",
                        forward_bound.ms, forward_bound.gflop, forward_bound.ms + backward_bound.ms);
        std::printf(", \"products\": %s}\n",
                    products.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    std::printf(
        "GEMM bound of the %s pass, %s, %lld+%lld tokens, %d thread%s (each product's fastest kernel and split):\n",
        pass, name.c_str(), S, T, thread_count(), thread_count() == 1 ? "" : "s");
    const size_t width = backward ? 64 : 46;  // the backward's products are named "<forward product>: dA = …"
    std::printf("  %s %s %6s %10s %10s %10s  %s\n", padded("product", width).c_str(),
                padded("(m, k)·(k, n)", 24).c_str(), "count", "ms each", "ms", "in cache", "kernel, split");
    for (const TimedMatmul& p : bound.products) {
        const std::string shape = "(" + std::to_string(p.shape.m) + ", " + std::to_string(p.shape.k) + ")·(" +
                                  std::to_string(p.shape.k) + ", " + std::to_string(p.shape.n) + ")";
        std::printf("  %s %s %6lld %10.4f %10.3f %10.3f  %s, %s\n", padded(p.shape.what, width).c_str(),
                    padded(shape, 24).c_str(), static_cast<long long>(p.shape.count), p.ms_each, p.ms_total(),
                    p.cached_ms_total(), to_string(p.kernel), to_string(p.split));
    }
    std::printf("sum: %.3f ms for %.3f GFLOP (%.1f GFLOP/s), each weight read from memory; %.3f ms with every "
                "operand in cache\n",
                bound.ms, bound.gflop, bound.gflops(), bound.cached_ms);
    if (backward)
        std::printf(
            "the forward pass's products, timed in the same run: %.3f ms for %.3f GFLOP; forward + backward: "
            "%.3f ms\n",
            forward_bound.ms, forward_bound.gflop, forward_bound.ms + backward_bound.ms);
    return 0;
}

struct EditTimes {
    double first_append_ms = 0;  // the re-run after a token is appended to a pass just run over the others
    double append_ms = 0;        // the re-run after the last token is appended to the others, again and again
    double middle_ms = 0;        // the re-run after the middle token changes
};

// Medians over `reps` edits of the run's last sequence (the target, or an encoder-only model's source),
// each timed from the edit to the re-run trace; the first append over min(reps, 3) passes, each run over the
// others just before it (the trace's arrays as a pass leaves them, which the later appends have already grown).
// The stepper ends as it began.
EditTimes time_edits(Stepper& stepper, long long reps) {
    const bool target = stepper.config().has_decoder();
    const std::vector<int> ids = target ? stepper.inputs().tgt_ids : stepper.inputs().src_ids;
    auto set = [&](std::vector<int> edited) {
        const auto t0 = Clock::now();
        const Status st = target ? stepper.set_tgt_ids(std::move(edited)) : stepper.set_src_ids(std::move(edited));
        assert(st);
        (void)st;
        return ms_since(t0);
    };
    const int vocab = target ? stepper.config().tgt_vocab_size : stepper.config().src_vocab_size;
    std::vector<int> changed = ids;
    const size_t middle = ids.size() / 2;
    changed[middle] =
        (ids[middle] + 1) % vocab == stepper.config().pad_id ? (ids[middle] + 2) % vocab : (ids[middle] + 1) % vocab;
    std::vector<double> first_append, append, edit;
    for (long long r = 0; r < std::min(reps, 3LL) && ids.size() > 1; ++r) {
        set(std::vector<int>(ids.begin(), ids.end() - 1));
        stepper.run_to(0);
        stepper.run_all();
        first_append.push_back(set(ids));
    }
    for (long long r = 0; r < reps && ids.size() > 1; ++r) {  // one append after another, as tokens are generated
        set(std::vector<int>(ids.begin(), ids.end() - 1));
        append.push_back(set(ids));
    }
    for (long long r = 0; r < reps; ++r) {
        edit.push_back(set(changed));
        set(ids);
    }
    return {first_append.empty() ? 0.0 : median_of(first_append), append.empty() ? 0.0 : median_of(append),
            median_of(edit)};
}

}  // namespace

int run_bench(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv,
                              {{"preset", "src-len", "tgt-len", "reps", "vocab", "seed", "opens", "loss", "keep"},
                               {"json", "gemm-bound", "edits", "backward", "by-step"},
                               0,
                               1},
                              args))
        return fail("bench: " + *err, kExitUsage);
    auto number = [&](const char* flag, long long fallback, long long lo, long long hi) {
        return integer_flag(args, flag, fallback, lo, hi);
    };
    const auto src_len = number("src-len", 32, 1, 65536), tgt_len = number("tgt-len", 32, 1, 65536);
    const auto reps = number("reps", 20, 1, 100000), vocab = number("vocab", 99, 5, 1 << 22);
    const auto seed = number("seed", 0, 0, 1LL << 62), opens = number("opens", 5, 1, 1000);
    if (!src_len || !tgt_len || !reps || !vocab || !seed || !opens)
        return fail("bench: --src-len, --tgt-len, --reps, --vocab, --seed and --opens take positive integers",
                    kExitUsage);
    const bool from_file = !args.positional.empty();
    if (from_file && (args.get("preset") || args.get("vocab")))
        return fail("bench: --preset and --vocab describe a random model; drop them with a MODEL", kExitUsage);
    const std::string preset = args.get("preset").value_or("base");
    const bool backward = args.has("backward");
    const std::optional<TraceKeep> keep = trace_keep_named(args.get("keep").value_or("automatic"));
    if (!keep) return fail("bench: --keep takes automatic, standard or checkpoints", kExitUsage);
    if (args.get("loss") && !backward)
        return fail("bench: --loss chooses the loss of --backward; add --backward", kExitUsage);

    Model model;
    OpenTimes open_times;
    if (from_file) {
        auto times = time_opens(args.positional[0], args.has("gemm-bound") ? 1 : *opens, &model);
        if (!times) return fail("bench: " + times.error().message, kExitBadInput);
        open_times = *times;
    } else {
        auto config = preset_config(preset, static_cast<int>(*vocab), static_cast<int>(*vocab));
        if (!config) return fail("bench: " + config.error().message, kExitUsage);
        config->max_len = static_cast<int>(std::max({*src_len, *tgt_len, static_cast<long long>(config->max_len)}));
        model.config = *config;
        if (!args.has("gemm-bound")) model.weights = init_weights(*config, static_cast<uint64_t>(*seed));
    }
    const ModelConfig& c = model.config;
    const std::string name = from_file ? io::display_path(args.positional[0]) : "preset " + preset;
    std::optional<LossSpec> loss;
    if (backward) {
        if (c.output_head == OutputHead::none)
            return fail("bench: --backward takes a loss of the logits, and " + name + " has no output head",
                        kExitBadInput);
        auto spec = args.get("loss") ? LossSpec::parse(*args.get("loss")) : default_loss(c);
        if (!spec) return fail("bench: " + spec.error().message, kExitUsage);
        loss = *spec;
    }
    if (args.has("gemm-bound"))
        return print_gemm_bound(name, c, c.has_encoder() ? *src_len : 0, c.has_decoder() ? *tgt_len : 0, backward,
                                args.has("json"));
    std::mt19937 rng(static_cast<uint32_t>(*seed));
    const int first_id = from_file ? 0 : 4;  // a random preset's ids 0..3 are its special tokens
    ForwardInputs inputs;
    if (c.has_encoder()) inputs.src_ids = random_ids(rng, *src_len, first_id, c.src_vocab_size, c.pad_id);
    if (c.has_decoder()) {
        inputs.tgt_ids = random_ids(rng, *tgt_len, first_id, c.tgt_vocab_size, c.pad_id);
        if (c.sos_id >= 0) inputs.tgt_ids[0] = c.sos_id;
    }
    auto stepper = Stepper::create(c, model.weights, inputs);
    if (!stepper) return fail("bench: " + stepper.error().message, kExitBadInput);
    stepper->set_trace_keep(*keep);
    if (backward)
        if (const Status st = BackwardPass::check(*stepper, *loss); !st)
            return fail("bench: " + st.error().message, kExitBadInput);

    std::vector<double> ms, backward_ms, both_ms;
    size_t backward_steps = 0;
    double loss_value = 0;
    for (long long r = 0; r < *reps + 2; ++r) {  // two warm-up runs
        stepper->run_to(0);
        const auto t0 = Clock::now();
        stepper->run_all();
        const double forward_ms = ms_since(t0);
        if (r >= 2) ms.push_back(forward_ms);
        if (!backward) continue;
        const auto t1 = Clock::now();
        auto pass = BackwardPass::create(*stepper, *loss);
        if (!pass) return fail("bench: " + pass.error().message, kExitBadInput);
        pass->run_all(*stepper);
        const double pass_ms = ms_since(t1);
        if (r >= 2) backward_ms.push_back(pass_ms), both_ms.push_back(forward_ms + pass_ms);
        backward_steps = pass->size();
        loss_value = pass->loss();
    }  // each backward pass, its gradients, freed here: before the next forward and untimed
    const double median = median_of(ms);  // sorts ms
    const double backward_median = backward ? median_of(backward_ms) : 0,
                 both_median = backward ? median_of(both_ms) : 0;
    const long long S = static_cast<long long>(inputs.src_ids.size()),
                    T = static_cast<long long>(inputs.tgt_ids.size());
    const int threads = thread_count();
    const double trace_mb = static_cast<double>(stepper->held_floats()) * sizeof(float) / (1 << 20);  // after the run
    const bool bf16_weights = weights_precision(model.weights).bf16_tensors > 0;
    const bool edits = args.has("edits");
    const EditTimes edit_times = edits ? time_edits(*stepper, *reps) : EditTimes{};
    const std::vector<StepGroupTime> by_step =
        args.has("by-step") ? time_steps_by_group(*stepper, *reps) : std::vector<StepGroupTime>{};
    if (args.has("json")) {
        std::printf(
            "{\"impl\": \"attnlab\", \"model\": %s, \"median_ms\": %.3f, \"min_ms\": %.3f, \"reps\": %lld, "
            "\"src_len\": %lld, \"tgt_len\": %lld, \"steps\": %zu, \"threads\": %d, \"peak_rss_mb\": %.1f, "
            "\"trace_keep\": \"%s\", \"trace_mb\": %.1f, \"bf16_products\": \"%s\"",
            json_string(name).c_str(), median, ms.front(), *reps, S, T, stepper->size(), threads, peak_rss_mb(),
            to_string(stepper->trace_keep()), trace_mb, bf16_weights ? to_string(bf16_products()) : "none");
        if (from_file)
            std::printf(", \"open_median_ms\": %.3f, \"open_first_ms\": %.3f, \"opens\": %lld", open_times.median_ms,
                        open_times.first_ms, *opens);
        if (edits)
            std::printf(", \"first_append_ms\": %.3f, \"append_ms\": %.3f, \"edit_middle_ms\": %.3f",
                        edit_times.first_append_ms, edit_times.append_ms, edit_times.middle_ms);
        if (backward)
            std::printf(
                ", \"loss\": %s, \"loss_value\": %.9g, \"backward_steps\": %zu, \"backward_median_ms\": %.3f, "
                "\"backward_min_ms\": %.3f, \"forward_backward_median_ms\": %.3f, "
                "\"forward_backward_min_ms\": %.3f",
                json_string(loss->to_string()).c_str(), loss_value, backward_steps, backward_median,
                backward_ms.front(), both_median, both_ms.front());
        if (!by_step.empty()) {
            nlohmann::json groups = nlohmann::json::array();
            for (const StepGroupTime& g : by_step)
                groups.push_back({{"path", g.path}, {"count", g.count}, {"ms", g.ms}});
            std::printf(", \"by_step\": %s",
                        groups.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        }
        std::printf("}\n");
        return 0;
    }
    if (from_file)
        std::printf("open %s: median %.1f ms, first %.1f ms over %lld opens\n", name.c_str(), open_times.median_ms,
                    open_times.first_ms, *opens);
    std::printf(
        "traced forward pass, %s, %lld+%lld tokens, %zu steps, %d thread%s: median %.3f ms, min %.3f ms over "
        "%lld runs; peak resident memory %.0f MB; the trace keeps %s, %.0f MB\n",
        name.c_str(), S, T, stepper->size(), threads, threads == 1 ? "" : "s", median, ms.front(), *reps,
        peak_rss_mb(), to_string(stepper->trace_keep()), trace_mb);
    if (bf16_weights) std::printf("BF16 products: %s\n", describe(bf16_products()).c_str());
    if (edits)
        std::printf(
            "re-run after appending the last token: median %.3f ms (%.1f%% of the pass), the first after a pass "
            "%.3f ms; after changing the middle token: %.3f ms (%.1f%%)\n",
            edit_times.append_ms, 100.0 * edit_times.append_ms / median, edit_times.first_append_ms,
            edit_times.middle_ms, 100.0 * edit_times.middle_ms / median);
    if (backward)
        std::printf(
            "backward pass of the loss %s = %.6g, %zu backward steps (BackwardPass::create and run_all on the "
            "finished forward pass): median %.3f ms, min %.3f ms; forward + backward: median %.3f ms, min %.3f ms\n",
            loss->to_string().c_str(), loss_value, backward_steps, backward_median, backward_ms.front(), both_median,
            both_ms.front());
    if (!by_step.empty()) {
        double sum = 0;
        for (const StepGroupTime& g : by_step) sum += g.ms;
        std::printf("each step run alone (Stepper::step_forward), summed over its layers, median of %lld runs:\n",
                    *reps);
        std::printf("  %s %5s %10s %6s\n", padded("step (its first layer)", 44).c_str(), "steps", "ms", "share");
        for (const StepGroupTime& g : by_step)
            std::printf("  %s %5d %10.3f %5.1f%%\n", padded(g.path, 44).c_str(), g.count, g.ms, 100.0 * g.ms / sum);
        std::printf("  %s %5zu %10.3f\n", padded("sum", 44).c_str(), stepper->size(), sum);
    }
    return 0;
}

}  // namespace attnlab::cli
