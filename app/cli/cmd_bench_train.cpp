// attnlab-cli bench-train: median time of one full training step (forward, backward, Adam) of a
// preset on a fixed random batch: the same work bench/torch_train.py times in PyTorch.
#include "cli_common.h"
#include "commands.h"
#include "parallel.h"
#include "train/adam.h"
#include "train/data_parallel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

namespace attnlab::cli {

int run_bench_train(const Argv& argv) {
    Args args;
    if (auto err = parse_args(
            argv, {{"preset", "batch", "src-len", "tgt-len", "vocab", "steps", "dropout"}, {"json"}, 0}, args))
        return fail("bench-train: " + *err, kExitUsage);
    auto number = [&](const char* flag, long long fallback, long long lo, long long hi) {
        return integer_flag(args, flag, fallback, lo, hi);
    };
    const auto batch_size = number("batch", 64, 1, 4096), src_len = number("src-len", 10, 1, 4096);
    const auto tgt_len = number("tgt-len", 11, 2, 4096), vocab = number("vocab", 300, 5, 1 << 20);
    const auto steps = number("steps", 50, 1, 100000);
    const int threads = thread_count();  // --threads N (main.cpp), default every core
    if (!batch_size || !src_len || !tgt_len || !vocab || !steps)
        return fail("bench-train: --batch, --src-len, --tgt-len (>= 2), --vocab and --steps take positive integers",
                    kExitUsage);
    const float dropout = std::strtof(args.get("dropout").value_or("0.1").c_str(), nullptr);
    const std::string preset = args.get("preset").value_or("tiny");
    auto config = preset_config(preset, static_cast<int>(*vocab), static_cast<int>(*vocab));
    if (!config) return fail("bench-train: " + config.error().message, kExitUsage);
    config->max_len = static_cast<int>(std::max({*src_len, *tgt_len, static_cast<long long>(config->max_len)}));

    // B pairs of src-len − 1 tokens + <eos> and tgt-len − 1 tokens (+ <sos> / <eos>): no padding.
    std::mt19937 rng(1);
    std::uniform_int_distribution<int> token(4, static_cast<int>(*vocab) - 1);
    std::vector<TokenPair> pairs(static_cast<size_t>(*batch_size));
    for (auto& p : pairs) {
        for (long long i = 0; i + 1 < *src_len; ++i) p.src.push_back(token(rng));
        for (long long i = 0; i + 1 < *tgt_len; ++i) p.tgt.push_back(token(rng));
    }
    Weights weights = init_weights(*config, 1);
    Adam adam(AdamOptions{});
    TrainOptions options;
    options.dropout = dropout;

    using Clock = std::chrono::steady_clock;
    std::vector<double> ms;
    for (long long s = 0; s < *steps + 3; ++s) {  // three warm-up steps
        const auto t0 = Clock::now();
        options.dropout_seed = static_cast<uint64_t>(s);
        auto r = loss_and_gradients_parallel(*config, weights, make_batch(pairs, *config), options, threads);
        if (!r) return fail("bench-train: " + r.error().message, kExitBadInput);
        adam.step(weights, r->grads, warmup_learning_rate(config->d_model, static_cast<int>(s) + 1, 4000, 1.0f));
        if (s >= 3) ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    const double median = median_of(ms);  // sorts ms
    if (args.has("json")) {
        std::printf(
            "{\"impl\": \"attnlab\", \"preset\": \"%s\", \"median_ms\": %.3f, \"steps_per_s\": %.2f, "
            "\"batch\": %lld, \"src_len\": %lld, \"tgt_len\": %lld, \"vocab\": %lld, \"threads\": %d}\n",
            preset.c_str(), median, 1000.0 / median, *batch_size, *src_len, *tgt_len, *vocab, threads);
    } else {
        std::printf(
            "training step, preset %s, batch %lld of %lld+%lld tokens, %d threads: median %.2f ms (%.1f steps/s) "
            "over %lld steps\n",
            preset.c_str(), *batch_size, *src_len, *tgt_len, threads, median, 1000.0 / median, *steps);
    }
    return 0;
}

}  // namespace attnlab::cli
