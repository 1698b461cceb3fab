// attnlab-cli: the headless client of the Attention Lab core.
#include "cli_common.h"
#include "commands.h"

#include <iostream>
#include <map>

namespace {

const char* kUsage = R"(usage: attnlab-cli COMMAND ...

  info MODEL                                   config, parameter count, tensor list
  init --preset tiny|base [--seed N] [--src-vocab FILE --tgt-vocab FILE] [--tokenizer word|char] --out MODEL
  trace MODEL (--src TEXT | --src-ids 1,5,7) [--tgt TEXT | --tgt-ids 1,8] --out TRACE.safetensors
  steps MODEL [--src ... --tgt ...]            the ordered forward-pass steps: path, title, formula, inputs
  translate MODEL --src TEXT                   greedy decoding from <sos> to <eos> or max_len
  bench [--preset base] [--src-len 32] [--tgt-len 32] [--reps 20] [--vocab 99] [--json]

Text is tokenized with the model's vocabulary: the source gets <eos> appended and the
target gets <sos> prepended. Ids given with --src-ids/--tgt-ids are used exactly as given.
Exit codes: 0 success, 1 bad input or file, 2 bad usage.
)";

}  // namespace

int main(int argc, char** argv) {
    using namespace attnlab::cli;
    if (argc < 2) return fail("missing command (try attnlab-cli --help)", kExitUsage);
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return 0;
    }
    const std::map<std::string, int (*)(const Argv&)> commands = {
        {"info", run_info},   {"init", run_init},           {"trace", run_trace},
        {"steps", run_steps}, {"translate", run_translate}, {"bench", run_bench}};
    auto it = commands.find(command);
    if (it == commands.end()) return fail("unknown command '" + command + "' (try attnlab-cli --help)", kExitUsage);
    return it->second(Argv(argv + 2, argv + argc));
}
