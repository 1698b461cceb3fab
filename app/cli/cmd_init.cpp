// attnlab-cli init: write a randomly initialised preset model.
#include "cli_common.h"
#include "commands.h"
#include "io/file_bytes.h"
#include "io/model_file.h"

#include <cstdio>

namespace attnlab::cli {

namespace {

Result<std::optional<Vocab>> read_vocab_file(const std::optional<std::string>& path) {
    if (!path) return std::optional<Vocab>{};
    auto bytes = io::read_file_bytes(*path);
    if (!bytes) return bytes.error();
    auto vocab = Vocab::from_lines(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
    if (!vocab) return Error{io::display_path(*path) + ": " + vocab.error().message};
    return std::optional<Vocab>(std::move(*vocab));
}

}  // namespace

int run_init(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{"preset", "seed", "out", "src-vocab", "tgt-vocab", "tokenizer"}, {}, 0}, args))
        return fail("init: " + *err, kExitUsage);
    if (!args.get("preset") || !args.get("out"))
        return fail("init: needs --preset tiny|base and --out MODEL", kExitUsage);
    const auto seed = parse_integer(args.get("seed").value_or("0"));
    if (!seed || *seed < 0) return fail("init: --seed must be a non-negative integer", kExitUsage);
    auto kind = tokenizer_kind_from_string(args.get("tokenizer").value_or("word"));
    if (!kind) return fail("init: --tokenizer: " + kind.error().message, kExitUsage);

    auto src = read_vocab_file(args.get("src-vocab"));
    if (!src) return fail(src.error().message, kExitBadInput);
    auto tgt = read_vocab_file(args.get("tgt-vocab"));
    if (!tgt) return fail(tgt.error().message, kExitBadInput);
    auto model = make_random_model(*args.get("preset"), static_cast<uint64_t>(*seed), *src, *tgt, *kind);
    if (!model) return fail("init: " + model.error().message, kExitBadInput);
    if (auto st = io::write_model(*args.get("out"), *model); !st) return fail(st.error().message, kExitBadInput);
    std::printf("wrote %s: preset %s, seed %lld, %lld parameters\n", args.get("out")->c_str(),
                args.get("preset")->c_str(), *seed, static_cast<long long>(parameter_count(model->config)));
    return 0;
}

}  // namespace attnlab::cli
