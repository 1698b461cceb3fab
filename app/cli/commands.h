// The attnlab-cli subcommands; each takes the arguments after its name and returns the exit code.
#pragma once

#include <string>
#include <vector>

namespace attnlab::cli {

using Argv = std::vector<std::string>;

int run_info(const Argv& argv);       // info MODEL
int run_init(const Argv& argv);       // init --preset tiny|base --seed N --out MODEL
int run_trace(const Argv& argv);      // trace MODEL (--src TEXT | --src-ids IDS) [--tgt ...] --out TRACE
int run_steps(const Argv& argv);      // steps MODEL [inputs]
int run_translate(const Argv& argv);  // translate MODEL --src TEXT
int run_bench(const Argv& argv);      // bench --preset base --src-len 32 --tgt-len 32 --reps N --json

}  // namespace attnlab::cli
