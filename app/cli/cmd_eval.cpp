// attnlab-cli eval MODEL --task T: exact match, token accuracy (and BLEU for en-ko) on the held-out split.
#include "cli_common.h"
#include "commands.h"
#include "io/model_file.h"
#include "train/evaluate.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::cli {

int run_eval(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{"task", "seed", "beam", "limit", "show"}, {}, 1}, args))
        return fail("eval: " + *err, kExitUsage);
    auto model = io::read_model(args.positional[0]);
    if (!model) return fail(model.error().message, kExitBadInput);
    const auto& record = model->training;
    const std::string task_name = args.get("task").value_or(record ? record->task : "");
    if (task_name.empty())
        return fail("eval: --task is required (the model does not say what it was trained on)", kExitUsage);
    // The held-out split depends on the seed the model was trained with; a different one could overlap training.
    const uint64_t default_seed = record && record->task == task_name ? record->seed : 1;
    auto seed = parse_integer(args.get("seed").value_or(std::to_string(default_seed)));
    auto beam = parse_integer(args.get("beam").value_or("1"));
    auto limit = parse_integer(args.get("limit").value_or("0"));
    auto show = parse_integer(args.get("show").value_or("0"));
    if (!seed || *seed < 0 || !beam || *beam < 1 || *beam > 64 || !limit || *limit < 0 || !show || *show < 0)
        return fail("eval: --seed, --limit and --show take integers >= 0, --beam 1..64", kExitUsage);

    auto task = make_task(task_name, static_cast<uint64_t>(*seed));
    if (!task) return fail("eval: " + task.error().message, kExitUsage);
    EvalOptions options;
    options.max_examples = static_cast<size_t>(*limit);
    options.beam_size = static_cast<int>(*beam);
    auto scores = evaluate_heldout(*model, **task, options);
    if (!scores) return fail("eval: " + scores.error().message, kExitBadInput);

    std::printf("task %s (seed %lld), %d held-out pairs, %s decoding\n", task_name.c_str(), *seed, scores->n_examples,
                *beam == 1 ? "greedy" : ("beam " + std::to_string(*beam)).c_str());
    std::printf("exact match     %.2f%%\n", 100.0 * scores->exact_match);
    std::printf("token accuracy  %.2f%%\n", 100.0 * scores->token_accuracy);
    if (task_name == "en-ko") std::printf("BLEU            %.2f\n", scores->bleu);
    std::printf("loss            %.4f\n", scores->loss);

    const auto& heldout = (*task)->heldout();
    for (size_t i = 0; i < std::min(static_cast<size_t>(*show), scores->hypotheses.size()); ++i) {
        auto join = [](const std::vector<std::string>& words) {
            std::string text;
            for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
            return text;
        };
        const std::string got = join(scores->hypotheses[i]), want = join(heldout[i].tgt);
        std::printf("%s %s -> %s%s\n", got == want ? "ok  " : "MISS", join(heldout[i].src).c_str(), got.c_str(),
                    got == want ? "" : ("   (expected " + want + ")").c_str());
    }
    return 0;
}

}  // namespace attnlab::cli
