// attnlab-cli translate MODEL --src TEXT: greedy decoding, one token at a time.
#include "cli_common.h"
#include "commands.h"
#include "decode.h"

#include <cstdio>

namespace attnlab::cli {

int run_translate(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {kInputFlags, {"verbose"}, 1}, args)) return fail("translate: " + *err, kExitUsage);
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    if (model.config.arch == Arch::encoder_only)
        return fail("translate: an encoder_only model cannot generate", kExitBadInput);
    const size_t prefix = stepper->inputs().tgt_ids.size();
    auto generated = greedy_decode(*stepper);
    if (!generated) return fail(generated.error().message, kExitBadInput);
    const Vocab* vocab = model.tgt_vocab ? &*model.tgt_vocab : nullptr;
    if (args.has("verbose")) {
        const auto& tgt = stepper->inputs().tgt_ids;
        for (size_t i = prefix; i < tgt.size(); ++i)
            std::printf("step %zu: %s\n", i - prefix + 1,
                        vocab ? vocab->token(tgt[i]).c_str() : std::to_string(tgt[i]).c_str());
    }
    if (vocab) {
        std::printf("%s\n", detokenize(*vocab, model.tokenizer, *generated, /*skip_special=*/true).c_str());
    } else {
        std::string ids;
        for (int id : *generated) ids += (ids.empty() ? "" : ",") + std::to_string(id);
        std::printf("%s\n", ids.c_str());
    }
    return 0;
}

}  // namespace attnlab::cli
