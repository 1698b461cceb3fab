// attnlab-cli info MODEL: what a model file holds.
#include "cli_common.h"
#include "commands.h"
#include "io/model_file.h"

#include <cstdio>

namespace attnlab::cli {

int run_info(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{}, {}, 1}, args)) return fail("info: " + *err, kExitUsage);
    auto model = io::read_model(args.positional[0]);
    if (!model) return fail(model.error().message, kExitBadInput);
    const ModelConfig& c = model->config;

    std::printf("model       %s\n", args.positional[0].c_str());
    std::printf("config      %s\n", config_to_json(c).c_str());
    std::printf("arch        %s, %s, %s FFN, %s positions\n", to_string(c.arch).c_str(),
                c.norm_first ? "pre-LN" : "post-LN", to_string(c.activation).c_str(), to_string(c.positional).c_str());
    std::printf("shape       C=%d H=%d D=%d F=%d, %d encoder + %d decoder layers, max_len %d\n", c.d_model, c.n_heads,
                c.d_head(), c.d_ff, c.n_encoder_layers, c.n_decoder_layers, c.max_len);
    std::printf("parameters  %lld\n", static_cast<long long>(parameter_count(c)));
    auto vocab_line = [&](const char* name, const std::optional<Vocab>& v) {
        if (v) std::printf("%-11s %d tokens (%s tokenizer)\n", name, v->size(), to_string(model->tokenizer).c_str());
    };
    vocab_line("src_vocab", model->src_vocab);
    vocab_line("tgt_vocab", model->tgt_vocab);
    std::printf("tensors     %zu\n", model->weights.all().size());
    for (const auto& [name, tensor] : model->weights.all())
        std::printf("  %-48s %s\n", name.c_str(), shape_string(tensor->shape).c_str());
    return 0;
}

}  // namespace attnlab::cli
