// attnlab-cli bench: median time of the traced forward pass (every step, every output kept)
// of a random preset model, measured in-process.
#include "cli_common.h"
#include "commands.h"
#include "stepper.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

namespace attnlab::cli {

int run_bench(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{"preset", "src-len", "tgt-len", "reps", "vocab", "seed"}, {"json"}, 0}, args))
        return fail("bench: " + *err, kExitUsage);
    auto number = [&](const char* flag, long long fallback, long long lo, long long hi) {
        return integer_flag(args, flag, fallback, lo, hi);
    };
    const auto src_len = number("src-len", 32, 1, 65536), tgt_len = number("tgt-len", 32, 1, 65536);
    const auto reps = number("reps", 20, 1, 100000), vocab = number("vocab", 99, 5, 1 << 22);
    const auto seed = number("seed", 0, 0, 1LL << 62);
    if (!src_len || !tgt_len || !reps || !vocab || !seed)
        return fail("bench: --src-len, --tgt-len, --reps, --vocab and --seed take positive integers", kExitUsage);
    const std::string preset = args.get("preset").value_or("base");

    auto config = preset_config(preset, static_cast<int>(*vocab), static_cast<int>(*vocab));
    if (!config) return fail("bench: " + config.error().message, kExitUsage);
    config->max_len = static_cast<int>(std::max({*src_len, *tgt_len, static_cast<long long>(config->max_len)}));
    std::mt19937 rng(static_cast<uint32_t>(*seed));
    std::uniform_int_distribution<int> token(4, static_cast<int>(*vocab) - 1);
    ForwardInputs inputs;
    for (long long i = 0; i < *src_len; ++i) inputs.src_ids.push_back(token(rng));
    inputs.tgt_ids.push_back(config->sos_id);
    for (long long i = 1; i < *tgt_len; ++i) inputs.tgt_ids.push_back(token(rng));
    auto stepper = Stepper::create(*config, init_weights(*config, static_cast<uint64_t>(*seed)), inputs);
    if (!stepper) return fail("bench: " + stepper.error().message, kExitBadInput);

    using Clock = std::chrono::steady_clock;
    std::vector<double> ms;
    for (long long r = 0; r < *reps + 2; ++r) {  // two warm-up runs
        stepper->run_to(0);
        const auto t0 = Clock::now();
        stepper->run_all();
        const double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (r >= 2) ms.push_back(elapsed);
    }
    const double median = median_of(ms);  // sorts ms
    if (args.has("json")) {
        std::printf("{\"impl\": \"attnlab\", \"preset\": \"%s\", \"median_ms\": %.3f, \"min_ms\": %.3f, \"reps\": %lld, "
                    "\"src_len\": %lld, \"tgt_len\": %lld, \"vocab\": %lld, \"steps\": %zu, \"threads\": 1}\n",
                    preset.c_str(), median, ms.front(), *reps, *src_len, *tgt_len, *vocab, stepper->size());
    } else {
        std::printf("traced forward pass, preset %s, %lld+%lld tokens, %zu steps: median %.3f ms, min %.3f ms over %lld runs\n",
                    preset.c_str(), *src_len, *tgt_len, stepper->size(), median, ms.front(), *reps);
    }
    return 0;
}

}  // namespace attnlab::cli
