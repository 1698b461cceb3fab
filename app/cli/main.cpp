// attnlab-cli: the headless client of the Attention Lab core.
#include "cli_common.h"
#include "commands.h"
#include "ops/gemm_bf16_products.h"
#include "platform/memory.h"
#include "parallel.h"

#include <iostream>
#include <map>

namespace {

const char* kUsage = R"(usage: attnlab-cli COMMAND ...

  info MODEL                                   config, parameter count, tensor list (and unused tensors)
  init --preset tiny|base [--seed N] [--src-vocab FILE --tgt-vocab FILE] [--tokenizer word|char] --out MODEL
  trace MODEL (--src TEXT | --src-ids 1,5,7) [--src-types 0,0,1] [--tgt TEXT | --tgt-ids 1,8] --out TRACE.safetensors
  grad MODEL [--src ... --tgt ...] [--loss next-token | token:ID@POS | logit-diff:A,B@POS] --out GRADS.safetensors
                                               the forward pass, the loss of its logits (next-token by default;
                                               an encoder-only model needs token:ID@POS) and the backward pass:
                                               dL/d(each step's output) under its path, dL/d(each parameter)
                                               under param.<name>, the loss in __metadata__
  steps MODEL [--src ... --tgt ...]            the ordered forward-pass steps: path, title, formula, inputs
  explain MODEL [--src ... --tgt ...] [--step N] [--korean] [--head H] [--row R] [--col C] [--assets DIR]
                                               each step (or step N) explained: what, why, and its formula
                                               with this input's numbers (row: the last token unless --row)
  translate MODEL --src TEXT                   greedy decoding from <sos> to <eos> or max_len
  bench [MODEL] [--preset base] [--src-len 32] [--tgt-len 32] [--reps 20] [--vocab 99] [--opens 5] [--json]
        [--gemm-bound] [--edits] [--by-step] [--backward [--loss next-token|token:ID@POS|logit-diff:A,B@POS]]
        [--keep automatic|standard|checkpoints]
                                               traced forward pass of a random preset, or of MODEL on random
                                               ids (and MODEL's open time, and the peak resident memory);
                                               --keep: what the trace keeps (checkpoints: the residual
                                               stream, Q, K, V and the logits, the rest recomputed when
                                               asked; automatic: checkpoints past 1 GiB of attention
                                               weights and logits);
                                               --edits also times the re-run after appending the last token
                                               and after changing the middle one;
                                               --by-step also times each step run alone, summed over
                                               its layers (where the pass's time goes);
                                               --backward also times the backward pass of the loss alone
                                               (after the forward) and the forward and backward together;
                                               --gemm-bound instead times every matrix product of that pass
                                               (with --backward: of the backward) as sgemm over the threads:
                                               the time the pass's FLOPs need
  train --task copy|reverse|sort|en-ko [--preset tiny] [--steps N] [--seed S] --out MODEL
        [--batch 64] [--eval-every 500] [--eval-size 500] [--dropout 0.1] [--warmup 400] [--lr-scale 1] [--clip 1]
        [--threads N] [--head-disagreement λ] [--query-disagreement μ]
                                               trains with a progress bar, held-out scores at intervals, atomic
                                               checkpoints to MODEL; Ctrl-C stops and saves (exit 130); λ and μ
                                               weigh penalties on two heads, or two queries of one head,
                                               attending to the same keys
  eval MODEL [--task T] [--seed S] [--beam 4] [--limit N] [--show N]
                                               exact match, token accuracy (BLEU for en-ko) on the held-out split
  bench-train [--preset tiny] [--batch 64] [--src-len 10] [--tgt-len 11] [--vocab 300] [--steps 50] [--json]
  lens MODEL [--src ... --tgt ...] [--top 5] [--positions 0,3] [--json]
                                               the logit lens: each layer's output read through the model's
                                               end, its top tokens and probabilities at each position
  heads MODEL [--src ... --tgt ...] [--sort entropy|previous|first|self] [--json]
                                               every attention head's entropy, its mean weight on the
                                               previous token, the first token and itself, the largest share
                                               one key takes, and how far it is from its nearest other head
  similar MODEL (--token T | --id N) [--top 10]  the tokens nearest to one by cosine similarity of their
                                               embeddings (tokens as the vocabulary writes them: "Ġcat")
  pca MODEL (--tokens A,B,C | --ids 1,2,3) [--json]
                                               chosen tokens' embeddings on their first two principal components
  qk MODEL --layer L --head H [--stack encoder|decoder] (--tokens A,B,C | --ids 1,2,3 | --token T | --id N)
     [--top 10] [--offset N] [--json]          a head's QK circuit from its weights: the scores between the
                                               tokens of a list, or the keys one token attends to most; a
                                               rotary (RoPE) head's with the query N positions after the key
  ov MODEL --layer L --head H [--stack encoder|decoder] (--tokens ... | --ids ... | --token T | --id N)
     [--top 10] [--json]                       a head's OV circuit: the output logits attending to a token
                                               raises and lowers (for a list: among the list's own tokens)
  detect MODEL [--len 20] [--seed 0] [--bos ID] [--json]
                                               head detectors: every self-attention head's induction,
                                               previous-token and duplicate-token score on L random tokens
                                               repeated twice (after ID), and the best head for each
  attribute MODEL [--src ... --tgt ...] --metric logit:A@POS | logit-diff:A,B@POS [--top 20] [--json]
                                               direct logit attribution: the metric split exactly into the share
                                               of the embeddings, each head at each source position, each
                                               attention's output bias, each FFN and each norm's bias, read
                                               through the norms frozen at this run's scale and the unembedding
  patch MODEL (--clean TEXT | --clean-ids IDS) (--corrupt TEXT | --corrupt-ids IDS) [--tgt ...]
     --metric SPEC --what residual|attn-out|ffn-out|heads [--approx gradient] [--json]
     (an encoder-decoder also --what enc-residual|enc-attn-out|enc-ffn-out|enc-heads|cross-out|cross-heads)
                                               activation patching: the corrupted input run with one piece of
                                               the clean run put back (the stream entering each layer, each
                                               attention's or FFN's output, at each position; each head's
                                               weights.V; an encoder's, and the cross-attention's), the metric
                                               (logit:A@POS, prob:A@POS, logit-diff:A,B@POS) of each patched
                                               run, or its estimate from one backward pass
  flow MODEL [--src ... --tgt ...] --token POS [--threshold 0.04] [--json]
                                               the contribution graph (information flow routes, as the LLM
                                               Transparency Tool draws them): each head through each source
                                               position, each FFN and the stream itself, by its proximity share
                                               of each residual add; the edges above the threshold, followed
                                               back from the token's last residual stream
  knockout MODEL [--src ... --tgt ...] --metric SPEC --attention encoder-self|decoder-self|cross --layer L
     [--head H] (--edge Q,K | --grid) [--json]
                                               attention knockout: one query -> key edge of one layer's attention
                                               blocked (its score -inf before the softmax, as a mask cell does),
                                               in one head or every head, and the metric before, after and its
                                               change; or every edge's change (--grid)
  route MODEL [--src ... --tgt ...] [--layer L] [--json]
                                               a mixture of experts: each token's chosen experts with their
                                               routing weights, and the load per expert, in every layer with
                                               experts (or layer L)
  compare MODEL_A [MODEL_B] [--src ... --tgt ...] [--ablate ATTENTION:HEAD,...] [--step PATH] [--top 8] [--json]
                                               both models (or MODEL_A with heads ablated) on A's input: every
                                               step's max |B - A|, rms and relative difference, or one step's
                                               largest differences

--threads N (any command): the threads a forward pass, and train's and bench-train's batch split, use
(default: every core). A trace is the same, bit for bit, on any count.
--bf16-products exact|dot (any command): how BF16 weights are multiplied. exact (the default): widened to F32,
the same bits as F32 weights. dot: x rounded to BF16 and multiplied by AVX512_BF16's vdpbf16ps, summed in F32;
on a CPU without AVX512_BF16, exact, with a note.

MODEL is one of our .safetensors model files or a Hugging Face folder (config.json +
model.safetensors) of a GPT-2 or BERT model, memory-mapped; --src-types gives BERT's token
types. Such a folder's text goes through its own tokenizer (vocab.json + merges.txt, or
vocab.txt); without those files give its token ids with --src-ids.
Our models tokenize text with their vocabulary: the source gets <eos> appended and the
target gets <sos> prepended. Ids given with --src-ids/--tgt-ids are used exactly as given.
Exit codes: 0 success, 1 bad input or file, 2 bad usage.
)";

// Takes "--threads N" out of a command's arguments and sets the thread count: the one place it is
// read, for every command. Returns an error message for a bad or missing value.
std::optional<std::string> take_threads_flag(attnlab::cli::Argv& args) {
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--threads") continue;
        const auto n = i + 1 < args.size() ? attnlab::parse_thread_count(args[i + 1]) : std::nullopt;
        if (!n)
            return "--threads takes a whole number of threads from 1 to " + std::to_string(attnlab::kMaxThreads) +
                   (i + 1 < args.size() ? " (got '" + args[i + 1] + "')" : "");
        attnlab::set_thread_count(*n);
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 2));
        --i;
    }
    return std::nullopt;
}

// Takes "--bf16-products exact|dot" out of a command's arguments and sets the process's BF16 products: the one place
// it is read. Dot asked for on a CPU without AVX512_BF16 runs exact, and says so on stderr. Returns an error message
// for a bad or missing value.
std::optional<std::string> take_bf16_products_flag(attnlab::cli::Argv& args) {
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--bf16-products") continue;
        const auto asked = i + 1 < args.size() ? attnlab::parse_bf16_products(args[i + 1]) : std::nullopt;
        if (!asked)
            return "--bf16-products takes exact or dot" + (i + 1 < args.size() ? " (got '" + args[i + 1] + "')" : "");
        if (attnlab::set_bf16_products(*asked) != *asked)
            std::cerr << "attnlab-cli: note: this CPU has no AVX512_BF16 (vdpbf16ps): BF16 products are exact\n";
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 2));
        --i;
    }
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace attnlab::cli;
    attnlab::platform::keep_freed_memory_for_reuse();
    if (argc < 2) return fail("missing command (try attnlab-cli --help)", kExitUsage);
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return 0;
    }
    // clang-format off
    const std::map<std::string, int (*)(const Argv&)> commands = {
        {"info", run_info},       {"init", run_init},
        {"trace", run_trace},     {"steps", run_steps},
        {"grad", run_grad},       {"explain", run_explain},
        {"translate", run_translate}, {"bench", run_bench},
        {"train", run_train},     {"eval", run_eval},
        {"bench-train", run_bench_train}, {"lens", run_lens},
        {"heads", run_heads},     {"similar", run_similar},
        {"pca", run_pca},         {"qk", run_qk},
        {"ov", run_ov},           {"compare", run_compare},
        {"detect", run_detect},   {"attribute", run_attribute},
        {"patch", run_patch},     {"flow", run_flow},
        {"knockout", run_knockout}, {"route", run_route}};
    // clang-format on
    auto it = commands.find(command);
    if (it == commands.end()) return fail("unknown command '" + command + "' (try attnlab-cli --help)", kExitUsage);
    Argv args(argv + 2, argv + argc);
    if (auto err = take_threads_flag(args)) return fail(command + ": " + *err, kExitUsage);
    if (auto err = take_bf16_products_flag(args)) return fail(command + ": " + *err, kExitUsage);
    return it->second(args);
}
