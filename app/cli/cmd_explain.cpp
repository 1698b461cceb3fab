// attnlab-cli explain MODEL: every step (or one) explained in English or Korean, with the
// numbers of this input filled in, from the texts in assets/explanations/.
#include "cli_common.h"
#include "commands.h"
#include "explain/explain_labels.h"
#include "explain/explanation.h"

#include <cstdio>
#include <filesystem>

namespace attnlab::cli {

namespace {

// assets/ beside the executable's directory (a build tree), beside the executable, or in the working directory.
std::string default_assets_dir() {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (const fs::path& dir : {exe.parent_path().parent_path() / "assets", exe.parent_path() / "assets"})
            if (fs::exists(dir / "explanations", ec)) return dir.string();
    return "assets";
}

void print_explanation(size_t index, const Step& step, const Explanation& e) {
    std::printf("%4zu  %-44s %s\n", index, step.path.c_str(), e.title.c_str());
    std::printf("      %s\n      %s\n      %s\n      = %s\n", e.formula.c_str(), e.what.c_str(), e.why.c_str(),
                e.numbers.c_str());
}

}  // namespace

int run_explain(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert({"step", "assets", "head", "row", "col"});
    if (auto err = parse_args(argv, {flags, {"korean"}, 1}, args)) return fail("explain: " + *err, kExitUsage);
    // -1: the last row, and the column each step picks (the strongest key, ...).
    const auto head = integer_flag(args, "head", 0, 0, 1 << 20), row = integer_flag(args, "row", -1, -1, 1 << 20),
               col = integer_flag(args, "col", -1, -1, 1 << 20);
    if (!head || !row || !col) return fail("explain: --head, --row and --col take a small integer", kExitUsage);
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    const auto step = integer_flag(args, "step", 0, 0, static_cast<long long>(stepper->size()) - 1);
    if (!step)
        return fail("explain: --step takes an index in [0, " + std::to_string(stepper->size() - 1) + "]", kExitUsage);
    const bool every_step = !args.get("step");

    const Language language = args.has("korean") ? Language::korean : Language::english;
    auto table = load_explanation_table(args.get("assets").value_or(default_assets_dir()), language);
    if (!table) return fail(table.error().message, kExitBadInput);
    stepper->run_all();
    const ExplainFocus focus{static_cast<int>(*head), static_cast<int>(*row), static_cast<int>(*col)};
    const ExplainLabels labels = explain_labels(model, stepper->inputs());
    const size_t first = every_step ? 0 : static_cast<size_t>(*step);
    const size_t last = every_step ? stepper->size() : first + 1;
    for (size_t i = first; i < last; ++i) {
        auto e = explain_step(*table, *stepper, i, focus, labels);
        if (!e) return fail(e.error().message, kExitBadInput);
        print_explanation(i, stepper->step(i), *e);
    }
    return 0;
}

}  // namespace attnlab::cli
