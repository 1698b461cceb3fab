// The attnlab-cli subcommands; each takes the arguments after its name and returns the exit code.
#pragma once

#include <string>
#include <vector>

namespace attnlab::cli {

using Argv = std::vector<std::string>;

int run_info(const Argv& argv);         // info MODEL
int run_init(const Argv& argv);         // init --preset tiny|base --seed N --out MODEL
int run_trace(const Argv& argv);        // trace MODEL (--src TEXT | --src-ids IDS) [--tgt ...] --out TRACE
int run_grad(const Argv& argv);         // grad MODEL [inputs] [--loss next-token|token:ID@POS|logit-diff:A,B@POS] --out
int run_steps(const Argv& argv);        // steps MODEL [inputs]
int run_explain(const Argv& argv);      // explain MODEL [inputs] [--step N] [--korean]
int run_translate(const Argv& argv);    // translate MODEL --src TEXT
int run_bench(const Argv& argv);        // bench --preset base --src-len 32 --tgt-len 32 --reps N --json
int run_train(const Argv& argv);        // train --task T --preset tiny --steps N --seed S --out MODEL
int run_eval(const Argv& argv);         // eval MODEL --task T
int run_bench_train(const Argv& argv);  // bench-train --preset tiny --batch 64 --json
int run_lens(const Argv& argv);         // lens MODEL [inputs] [--top K] [--positions 0,3] [--json]
int run_heads(const Argv& argv);        // heads MODEL [inputs] [--sort entropy|previous|first|self] [--json]
int run_similar(const Argv& argv);      // similar MODEL (--token T | --id N) [--top 10]
int run_pca(const Argv& argv);          // pca MODEL (--tokens A,B,C | --ids 1,2,3) [--json]
int run_compare(const Argv& argv);  // compare MODEL_A [MODEL_B] [inputs] [--ablate PATH:HEAD] [--step PATH] [--json]
int run_qk(
    const Argv& argv);  // qk MODEL --layer L --head H [--stack S] (--tokens A,B | --ids 1,2 | --token T | --id N)
int run_ov(
    const Argv& argv);  // ov MODEL --layer L --head H [--stack S] (--tokens A,B | --ids 1,2 | --token T | --id N)
int run_detect(const Argv& argv);  // detect MODEL [--len L] [--seed S] [--bos ID] [--json]
// attribute MODEL [inputs] --metric logit:A@POS|logit-diff:A,B@POS [--top K] [--json]
int run_attribute(const Argv& argv);
// patch MODEL (--clean TEXT | --clean-ids IDS) (--corrupt TEXT | --corrupt-ids IDS) [--tgt ...] --metric SPEC
//       --what residual|attn-out|ffn-out|heads|enc-residual|enc-attn-out|enc-ffn-out|enc-heads|cross-out|cross-heads
//       [--approx gradient] [--json]
int run_patch(const Argv& argv);
// flow MODEL [inputs] --token POS [--threshold T] [--json]
int run_flow(const Argv& argv);
// knockout MODEL [inputs] --metric SPEC --attention encoder-self|decoder-self|cross --layer L [--head H]
//          (--edge Q,K | --grid) [--json]
int run_knockout(const Argv& argv);
// route MODEL [inputs] [--layer L] [--json]: a mixture of experts' chosen experts per token and load per expert
int run_route(const Argv& argv);

}  // namespace attnlab::cli
