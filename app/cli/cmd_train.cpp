// attnlab-cli train: trains a preset on a task with a progress bar, evaluates on the held-out
// split at intervals, and checkpoints atomically. Ctrl-C stops after the current step and saves.
#include "cli_common.h"
#include "commands.h"
#include "io/model_file.h"
#include "parallel.h"
#include "train/trainer.h"

#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>

namespace attnlab::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;  // set by SIGINT/SIGTERM; the loop polls it

void on_interrupt(int) { g_interrupted = 1; }

std::string format_duration(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

// [#########...........] step 1200/3000  loss 1.234  acc 81.2%  43.1 steps/s  ETA 0m42s
void print_progress(const StepReport& r, int total, double steps_per_second, bool tty) {
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(static_cast<double>(r.step) / total * kWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(kWidth, '.');
    const double eta = steps_per_second > 0 ? (total - r.step) / steps_per_second : 0.0;
    std::fprintf(stderr, "%s[%s] step %d/%d  loss %.3f  acc %5.1f%%  %.1f steps/s  ETA %s%s", tty ? "\r" : "",
                 bar.c_str(), r.step, total, r.loss, 100.0 * r.token_accuracy, steps_per_second,
                 format_duration(eta).c_str(), tty ? "   " : "\n");
    std::fflush(stderr);
}

void print_eval(int step, const EvalScores& s, bool with_bleu) {
    std::printf("held-out @ step %d: exact match %.1f%%  token accuracy %.1f%%", step, 100.0 * s.exact_match,
                100.0 * s.token_accuracy);
    if (with_bleu) std::printf("  BLEU %.1f", s.bleu);
    std::printf("  loss %.3f  (%d sentences)\n", s.loss, s.n_examples);
    std::fflush(stdout);
}

}  // namespace

int run_train(const Argv& argv) {
    Args args;
    const ArgSpec spec{{"task", "preset", "steps", "seed", "out", "batch", "eval-every", "eval-size", "dropout",
                        "warmup", "lr-scale", "clip", "head-disagreement", "query-disagreement"},
                       {"quiet"},
                       0};
    if (auto err = parse_args(argv, spec, args)) return fail("train: " + *err, kExitUsage);
    if (!args.get("task") || !args.get("out")) return fail("train: --task and --out are required", kExitUsage);
    TrainSettings settings;
    settings.task = *args.get("task");
    settings.preset = args.get("preset").value_or("tiny");
    auto integer = [&](const char* flag, long long fallback, long long lo, long long hi, long long& out) {
        auto v = parse_integer(args.get(flag).value_or(std::to_string(fallback)));
        if (!v || *v < lo || *v > hi) return false;
        out = *v;
        return true;
    };
    auto real = [&](const char* flag, double fallback, double lo, double hi, double& out) {
        const std::string text = args.get(flag).value_or(std::to_string(fallback));
        char* end = nullptr;
        out = std::strtod(text.c_str(), &end);
        return end && *end == '\0' && !text.empty() && out >= lo && out <= hi;
    };
    long long steps = 0, seed = 0, batch = 0, eval_every = 0, eval_size = 0, warmup = 0;
    double dropout = 0, lr_scale = 0, clip = 0, heads = 0, queries = 0;
    if (!integer("steps", settings.steps, 1, 10'000'000, steps) || !integer("seed", 1, 0, 1LL << 62, seed) ||
        !integer("batch", settings.batch_size, 1, 4096, batch) ||
        !integer("eval-every", 500, 1, 10'000'000, eval_every) || !integer("eval-size", 500, 0, 1'000'000, eval_size) ||
        !integer("warmup", settings.adam.warmup_steps, 1, 10'000'000, warmup))
        return fail("train: --steps, --seed, --batch, --eval-every, --eval-size and --warmup take positive integers",
                    kExitUsage);
    if (!real("dropout", settings.dropout, 0.0, 0.95, dropout) ||
        !real("lr-scale", settings.adam.lr_scale, 1e-6, 100.0, lr_scale) ||
        !real("clip", settings.adam.clip_norm, 0.0, 1e6, clip) ||
        !real("head-disagreement", settings.head_disagreement, 0.0, 100.0, heads) ||
        !real("query-disagreement", settings.query_disagreement, 0.0, 100.0, queries))
        return fail(
            "train: --dropout takes 0..0.95, --lr-scale a positive number, --clip 0 (off) or a norm, "
            "--head-disagreement and --query-disagreement 0..100",
            kExitUsage);
    settings.steps = static_cast<int>(steps);
    settings.seed = static_cast<uint64_t>(seed);
    settings.batch_size = static_cast<int>(batch);
    settings.dropout = static_cast<float>(dropout);
    settings.adam.warmup_steps = static_cast<int>(warmup);
    settings.threads = thread_count();  // --threads N (main.cpp), default every core
    settings.adam.lr_scale = static_cast<float>(lr_scale);
    settings.adam.clip_norm = static_cast<float>(clip);
    settings.head_disagreement = static_cast<float>(heads);
    settings.query_disagreement = static_cast<float>(queries);
    const std::string out = *args.get("out");

    auto trainer = Trainer::create(settings);
    if (!trainer) return fail("train: " + trainer.error().message, kExitUsage);
    // Fail before training, not after it, when the output cannot be written (an existing file stays until
    // the first checkpoint replaces it).
    const std::filesystem::path out_dir = std::filesystem::absolute(out).parent_path();
    if (!std::filesystem::is_directory(out_dir) || access(out_dir.c_str(), W_OK) != 0)
        return fail("train: cannot write " + out + ": " + out_dir.string() + " is not a writable directory",
                    kExitBadInput);

    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    const bool tty = isatty(STDERR_FILENO) && !args.has("quiet");
    const bool with_bleu = settings.task == "en-ko";
    EvalOptions eval;
    eval.max_examples = static_cast<size_t>(eval_size);
    eval.label_smoothing = settings.label_smoothing;
    std::printf("training %s on %s: %lld parameters, %d steps of %d pairs, seed %llu -> %s\n", settings.preset.c_str(),
                settings.task.c_str(), static_cast<long long>(parameter_count((*trainer)->model().config)),
                settings.steps, settings.batch_size, static_cast<unsigned long long>(settings.seed), out.c_str());
    std::fflush(stdout);

    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    Trainer& t = **trainer;
    while (!t.finished() && !g_interrupted) {
        const StepReport r = t.train_step();
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        const double rate = elapsed > 0 ? r.step / elapsed : 0.0;
        if (tty ? (r.step % 10 == 0 || t.finished()) : (r.step % eval_every == 0 || r.step == 1))
            print_progress(r, settings.steps, rate, tty);
        if (r.step % eval_every == 0 || t.finished()) {
            if (tty) std::fputc('\n', stderr);
            print_eval(r.step, t.evaluate(eval), with_bleu);
            if (auto st = io::write_model(out, t.model()); !st)
                return fail("train: " + st.error().message, kExitBadInput);
        }
    }
    if (g_interrupted) {
        if (tty) std::fputc('\n', stderr);
        if (auto st = io::write_model(out, t.model()); !st) return fail("train: " + st.error().message, kExitBadInput);
        std::printf("interrupted at step %d; saved %s\n", t.steps_done(), out.c_str());
        return 130;
    }
    const double total = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("done: %d steps in %s (%.1f steps/s); saved %s\n", t.steps_done(), format_duration(total).c_str(),
                t.steps_done() / total, out.c_str());
    return 0;
}

}  // namespace attnlab::cli
