#include "train_args.h"

#include "cli_common.h"
#include "parallel.h"

#include <cmath>
#include <cstdlib>

namespace attnlab::cli {

namespace {

const ArgSpec kSpec{{"task", "preset", "init", "text", "data-ids", "pairs", "history", "history-every", "seq-len", "shuffle", "steps", "seed", "out", "batch",
                     "eval-every", "eval-size", "dropout", "label-smoothing", "optimizer", "lr", "schedule", "warmup",
                     "lr-scale", "clip", "adam-beta1", "adam-beta2", "adam-eps", "head-disagreement",
                     "query-disagreement", "log"},
                    {"quiet"},
                    0};

// A flag's integer in [lo, hi], its fallback when absent; nullopt when malformed or out of range.
std::optional<long long> integer(const Args& args, const char* flag, long long fallback, long long lo, long long hi) {
    auto v = parse_integer(args.get(flag).value_or(std::to_string(fallback)));
    if (!v || *v < lo || *v > hi) return std::nullopt;
    return *v;
}

std::optional<double> real(const Args& args, const char* flag, double fallback, double lo, double hi) {
    const auto given = args.get(flag);
    if (!given) return fallback;
    char* end = nullptr;
    const double v = std::strtod(given->c_str(), &end);
    if (given->empty() || !end || *end != '\0' || !std::isfinite(v) || v < lo || v > hi) return std::nullopt;
    return v;
}

}  // namespace

std::variant<TrainCommand, std::string> parse_train_command(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, kSpec, args)) return *err;
    TrainCommand c;
    TrainSettings& s = c.settings;
    OptimizerSettings& o = s.optimizer;
    c.init = args.get("init");
    c.text = args.get("text");
    c.data_ids = args.get("data-ids");
    c.pairs = args.get("pairs");
    c.history = args.get("history");
    c.log = args.get("log");
    if (!args.get("out")) return "--out is required";
    c.out = *args.get("out");
    if (c.init.has_value() == args.get("task").has_value()) return "give --task NAME or --init MODEL, one of them";
    if ((c.text ? 1 : 0) + (c.data_ids ? 1 : 0) + (c.pairs ? 1 : 0) > 1)
        return "give one of --text FILE, --data-ids FILE and --pairs FILE";
    if (c.init && !c.text && !c.data_ids && !c.pairs)
        return "--init MODEL trains on --text FILE or --data-ids FILE (--pairs FILE for an encoder-decoder)";
    if (!c.init && (c.text || c.data_ids || c.pairs))
        return "--text, --data-ids and --pairs train an opened model (--init MODEL)";
    if (c.history && args.get("task").value_or("") != "induction")
        return "--history records the induction task's checkpoints: give --task induction";
    if (c.init && args.get("preset")) return "--preset makes a task's new model; --init brings its own";
    s.task = args.get("task").value_or("");
    s.preset = args.get("preset").value_or(s.task == "induction" ? "induction" : "tiny");
    c.quiet = args.has("quiet");

    const auto steps = integer(args, "steps", s.steps, 1, 10'000'000), seed = integer(args, "seed", 1, 0, 1LL << 62);
    const auto batch = integer(args, "batch", s.batch_size, 1, 4096), seq_len = integer(args, "seq-len", 64, 1, 1 << 20);
    const auto eval_every = integer(args, "eval-every", 500, 1, 10'000'000);
    const auto eval_size = integer(args, "eval-size", 500, 0, 1'000'000);
    const auto warmup = integer(args, "warmup", o.adam.warmup_steps, 1, 10'000'000);
    const auto history_every = integer(args, "history-every", 50, 1, 10'000'000);
    if (!steps || !seed || !batch || !seq_len || !eval_every || !eval_size || !warmup || !history_every)
        return "--steps, --seed, --batch, --seq-len, --eval-every, --eval-size, --warmup and --history-every take "
               "positive integers";
    if (args.get("shuffle")) {
        const auto shuffle = parse_integer(*args.get("shuffle"));
        if (!shuffle || *shuffle < 0) return "--shuffle takes a seed, a non-negative integer";
        c.shuffle = static_cast<uint64_t>(*shuffle);
    }
    const auto dropout = real(args, "dropout", c.init ? 0.0 : s.dropout, 0.0, 0.95);
    const auto smoothing = real(args, "label-smoothing", c.init ? 0.0 : s.label_smoothing, 0.0, 0.95);
    const auto lr = real(args, "lr", 0.0, 1e-12, 1e3), lr_scale = real(args, "lr-scale", o.adam.lr_scale, 1e-6, 100.0);
    const auto clip = real(args, "clip", o.adam.clip_norm, 0.0, 1e6);
    const auto beta1 = real(args, "adam-beta1", o.adam.beta1, 0.0, 0.999999);
    const auto beta2 = real(args, "adam-beta2", o.adam.beta2, 0.0, 0.999999);
    const auto eps = real(args, "adam-eps", o.adam.eps, 1e-20, 1.0);
    const auto heads = real(args, "head-disagreement", s.head_disagreement, 0.0, 100.0);
    const auto queries = real(args, "query-disagreement", s.query_disagreement, 0.0, 100.0);
    if (!dropout || !smoothing || !lr || !lr_scale || !clip || !beta1 || !beta2 || !eps || !heads || !queries)
        return "--dropout and --label-smoothing take 0..0.95, --lr and --lr-scale a positive number, --clip 0 (off) "
               "or a norm, --adam-beta1/2 0..1, --adam-eps a positive number, the disagreements 0..100";

    const std::string optimizer = args.get("optimizer").value_or("adam");
    if (!parse_optimizer(optimizer)) return "--optimizer takes adam or sgd, not '" + optimizer + "'";
    const std::string schedule = args.get("schedule").value_or(c.init ? "constant" : "warmup");
    if (!parse_schedule(schedule)) return "--schedule takes warmup or constant, not '" + schedule + "'";
    o.kind = *parse_optimizer(optimizer);
    o.schedule = *parse_schedule(schedule);
    if (args.get("lr")) o.lr = static_cast<float>(*lr);
    if (c.init && !o.lr && o.schedule == LrSchedule::constant) o.lr = kFineTuningRate;
    if (o.schedule == LrSchedule::constant && !o.lr) return "--schedule constant needs --lr";

    s.steps = static_cast<int>(*steps);
    s.seed = static_cast<uint64_t>(*seed);
    s.batch_size = static_cast<int>(*batch);
    s.dropout = static_cast<float>(*dropout);
    s.label_smoothing = static_cast<float>(*smoothing);
    s.threads = thread_count();  // --threads N (main.cpp), default every core
    s.head_disagreement = static_cast<float>(*heads);
    s.query_disagreement = static_cast<float>(*queries);
    o.adam = {static_cast<float>(*beta1), static_cast<float>(*beta2), static_cast<float>(*eps),
              static_cast<int>(*warmup),  static_cast<float>(*lr_scale), static_cast<float>(*clip)};
    c.seq_len = static_cast<int>(*seq_len);
    c.eval_every = static_cast<int>(*eval_every);
    c.eval_size = static_cast<int>(*eval_size);
    c.history_every = static_cast<int>(*history_every);
    return c;
}

}  // namespace attnlab::cli
