// attnlab-cli info MODEL: what a model file or a Hugging Face folder holds.
#include "cli_common.h"
#include "commands.h"
#include "forward/mechanisms/architecture.h"
#include "hf/hf_tokenizer.h"
#include "hf/open_model.h"
#include "io/file_bytes.h"
#include "weights_precision.h"

#include <cstdio>

namespace attnlab::cli {

namespace {

// "vocab.json, merges.txt" or "none"
std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "none" : s;
}

}  // namespace

int run_info(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{}, {}, 1}, args)) return fail("info: " + *err, kExitUsage);
    auto loaded = open_model(args.positional[0]);
    if (!loaded) return fail(loaded.error().message, kExitBadInput);
    const Model& model = loaded->model;
    const ModelConfig& c = model.config;

    std::printf("model       %s\n", io::display_path(args.positional[0]).c_str());
    std::printf("format      %s\n", loaded->format.c_str());
    std::printf("config      %s\n", config_to_json(c).c_str());
    std::printf("arch        %s\n", describe_architecture(c).c_str());
    std::printf("shape       C=%d H=%d D=%d F=%d, %d encoder + %d decoder layers, max_len %d\n", c.d_model, c.n_heads,
                c.d_head(), c.d_ff, c.n_encoder_layers, c.n_decoder_layers, c.max_len);
    std::printf("parameters  %lld\n", static_cast<long long>(parameter_count(c)));
    const std::string tokenizer = tokenizer_name(model);
    auto vocab_line = [&](const char* name, const std::optional<Vocab>& v, const std::string& its_tokenizer) {
        if (v) std::printf("%-11s %d tokens (%s tokenizer)\n", name, v->size(), its_tokenizer.c_str());
    };
    vocab_line("src_vocab", model.src_vocab, tokenizer);
    // A translator's target side may have its own (Marian's target.spm).
    vocab_line("tgt_vocab", model.tgt_vocab,
               model.target_subword_tokenizer ? model.target_subword_tokenizer->name() : tokenizer);
    if (c.family != Family::transformer) {
        const AttachedTokenizer& t = loaded->tokenizer;
        if (t.files_read.empty())
            std::printf("tokenizer   none (no %s): give token ids with %s\n", tokenizer_files_expected(c.family),
                        c.has_encoder() ? "--src-ids" : "--tgt-ids");
        else
            std::printf("tokenizer   %s from %s\n", tokenizer.c_str(), joined(t.files_read).c_str());
        if (!t.files_unread.empty()) std::printf("            not read: %s\n", joined(t.files_unread).c_str());
    }
    size_t n_mapped = 0;
    for (const auto& [name, tensor] : model.weights.all()) n_mapped += tensor->data.is_view() || tensor->bf16.is_view();
    std::printf("tensors     %zu", model.weights.all().size());
    if (n_mapped > 0) std::printf(" (%zu read in place from the mapped weights)", n_mapped);
    std::printf("\n");
    const WeightsPrecision precision = weights_precision(model.weights);
    std::printf("weights     ");
    if (precision.bf16_tensors > 0)
        std::printf("BF16 %.1f MiB in %lld tensors (multiplied as stored), ",
                    static_cast<double>(precision.bf16_bytes) / (1 << 20),
                    static_cast<long long>(precision.bf16_tensors));
    std::printf("F32 %.1f MiB in %lld tensors\n", static_cast<double>(precision.f32_bytes) / (1 << 20),
                static_cast<long long>(precision.f32_tensors));
    if (precision.bf16_tensors > 0)
        std::printf("products    %s%s\n", describe(bf16_products()).c_str(),
                    cpu_has_bf16_dot() ? "" : "; this CPU has no AVX512_BF16 for --bf16-products dot");
    for (const auto& [name, tensor] : model.weights.all())
        std::printf("  %-48s %s\n", name.c_str(), shape_string(tensor->shape).c_str());
    if (!loaded->unused_tensors.empty()) {
        std::printf("unused      %zu tensors in the file that no step reads\n", loaded->unused_tensors.size());
        for (const auto& name : loaded->unused_tensors) std::printf("  %s\n", io::display_path(name).c_str());
    }
    return 0;
}

}  // namespace attnlab::cli
