#!/usr/bin/env bash
# attnlab against llama.cpp on the same random weights, shaped like SmolLM2-135M (llama, F32), one tool after the
# other on this machine, as one markdown table: attnlab's traced pass of TOKENS (1,024) random ids and its re-run after
# the TOKENS-th token is appended (attnlab-cli bench --edits), against llama.cpp's prefill of TOKENS − 1 ids in one
# batch and its decode steps from position TOKENS − 1 on (bench/llamacpp_bench.mjs, node-llama-cpp's prebuilt CPU
# binary: F32 weights, F32 K and V caches, no flash attention, on 2 threads and on 1: on a busy machine ggml's
# threads wait for each other and one can be the faster), each process's peak resident memory; then
# whether the two compute the same function: 16 greedy tokens of llama.cpp after 64 random ids, and the largest
# difference of the logits before each of them from those of one attnlab-cli trace of the ids and those tokens.
#   bench/compare_llamacpp.sh [CLI] [SCRATCH]   SCRATCH (default /tmp/attnlab-llama-bench) holds the folder
#                                               smollm2-135m (tests/golden/make_hf_llama_golden.py --write-bench, F32)
#                                               and smollm2-135m.gguf (bench/hf_to_gguf.py), written if missing
# ROUNDS=N (default 1) alternates the tools N times and reports the medians; REPS (default 5) attnlab's timed passes
# and appends, LLAMA_REPS (default 3) llama.cpp's prefills; DECODE (default 9) its decode steps; TOKENS (default 1024);
# LLAMA_THREADS (default "2 1") llama.cpp's thread counts.
# node-llama-cpp is installed with npm into LLAMACPP_CACHE (default /tmp/attnlab-llamacpp) when missing. About
# 3 minutes a round on a quiet 2-core machine (10 on a busy one); 1.1 GB of disk, about 4 GB of memory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
scratch="${2:-/tmp/attnlab-llama-bench}"
cache="${LLAMACPP_CACHE:-/tmp/attnlab-llamacpp}"
rounds="${ROUNDS:-1}"
reps="${REPS:-5}"
llama_reps="${LLAMA_REPS:-3}"
decode="${DECODE:-9}"
tokens="${TOKENS:-1024}"
llama_threads="${LLAMA_THREADS:-2 1}"
check_tokens=64
steps=16

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export COMPARE_WORK="$work"
export COMPARE_LOAD_BEFORE
COMPARE_LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

if [ ! -f "$cache/node_modules/node-llama-cpp/package.json" ]; then
  echo "installing node-llama-cpp into $cache" >&2
  mkdir -p "$cache"
  (cd "$cache" && { [ -f package.json ] || npm init -y > /dev/null; } && npm install --no-audit --no-fund node-llama-cpp >&2)
fi
llamacpp() { NODE_PATH="$cache/node_modules" node "$root/bench/llamacpp_bench.mjs" "$@"; }

dir="$scratch/smollm2-135m"
gguf="$scratch/smollm2-135m.gguf"
[ -f "$dir/config.json" ] || /usr/bin/python3 "$root/tests/golden/make_hf_llama_golden.py" --write-bench "$dir" --shape smollm2-135m
[ -f "$gguf" ] || /usr/bin/python3 "$root/bench/hf_to_gguf.py" "$dir" "$gguf"
vocab=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1] + "/config.json"))["vocab_size"])' "$dir")

echo "same function: $steps greedy tokens of llama.cpp after $check_tokens random ids, attnlab-cli trace of them" >&2
ids=$(/usr/bin/python3 -c 'import random, sys
rng = random.Random(1)
print(",".join(str(rng.randrange(3, int(sys.argv[1]))) for _ in range(int(sys.argv[2]))))' "$vocab" "$check_tokens")
llamacpp greedy "$gguf" --ids "$ids" --steps "$steps" > "$work/greedy.json"
greedy=$(/usr/bin/python3 -c 'import json, sys; print(",".join(map(str, json.load(open(sys.argv[1]))["greedy"][:-1])))' "$work/greedy.json")
"$cli" trace "$dir" --tgt-ids "$ids,$greedy" --out "$work/trace.safetensors" > /dev/null

for _ in $(seq "$rounds"); do
  echo "attnlab: traced pass of $tokens tokens and the append of the last ($reps reps)" >&2
  "$cli" bench "$dir" --tgt-len "$tokens" --reps "$reps" --opens 1 --edits --json >> "$work/attnlab"
  for n in $llama_threads; do
    echo "llama.cpp on $n threads: prefill of $((tokens - 1)) tokens ($llama_reps reps), $decode decode steps" >&2
    llamacpp time "$gguf" --vocab "$vocab" --prefill "$((tokens - 1))" --decode "$decode" --reps "$llama_reps" \
      --threads "$n" >> "$work/llamacpp"
  done
done

export COMPARE_LOAD_AFTER COMPARE_CPU COMPARE_CORES COMPARE_ISA COMPARE_COMMIT
COMPARE_LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
COMPARE_CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
COMPARE_CORES="$(lscpu | sed -n 's/^Core(s) per socket:[[:space:]]*//p') cores × $(lscpu | sed -n 's/^Thread(s) per core:[[:space:]]*//p') threads"
COMPARE_ISA=$(grep -m1 -o -w -e avx512f -e avx2 /proc/cpuinfo | grep -q avx512f && echo "AVX-512" || echo "AVX2")
COMPARE_COMMIT="${ATTNLAB_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo "?")}"
NODE_LLAMA_CPP=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$cache/node_modules/node-llama-cpp/package.json")
export NODE_LLAMA_CPP

PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/bench:$root/tests/golden" /usr/bin/python3 - "$tokens" "$rounds" "$check_tokens" <<'PY'
import datetime
import json
import os
import sys

import numpy as np

from compare_report import mb, median, ms, runs
from hf_fixture_io import read_safetensors

tokens, rounds, check_tokens = map(int, sys.argv[1:])
e = os.environ
ours, theirs = runs("attnlab"), runs("llamacpp")
print(f"{datetime.date.today().isoformat()}, attnlab {e['COMPARE_COMMIT']}, node-llama-cpp {e['NODE_LLAMA_CPP']}: "
      f"{e['COMPARE_CPU']}, {e['COMPARE_ISA']}, {e['COMPARE_CORES']}; load average {e['COMPARE_LOAD_BEFORE']} before, "
      f"{e['COMPARE_LOAD_AFTER']} after; attnlab on {ours[0]['threads']} threads; medians of {rounds} alternating round(s)")
print()
a_pass, a_step, a_first = median(ours, "median_ms"), median(ours, "append_ms"), median(ours, "first_append_ms")
print(f"| tool | prefill {tokens - 1:,}/{tokens:,} tokens | decode step at {tokens:,} "
      "| ratio attnlab ÷ llama.cpp: prefill; decode (goal ≤ 2×) | peak RSS |")
print("|---|---|---|---|---|")
print(f"| attnlab, {ours[0]['threads']} threads: traced pass of {tokens:,}; re-run after appending the {tokens:,}th "
      f"token (the first after a pass over {tokens - 1:,}: {ms(a_first)}) | {ms(a_pass)} | {ms(a_step)} | – "
      f"| {mb(max(r['peak_rss_mb'] for r in ours))} |")
for n in sorted({r["threads"] for r in theirs}, reverse=True):
    rows = [r for r in theirs if r["threads"] == n]
    l_pass, l_step = median(rows, "prefill_median_ms"), median(rows, "decode_median_ms")
    steps = [x for r in rows for x in r["decode_steps_ms"]]
    print(f"| llama.cpp, {n} thread{'s' if n > 1 else ''}: prefill of {tokens - 1:,} in one batch; one token evaluated "
          f"at position {tokens - 1:,} on, and the next sampled | {ms(l_pass)} | {ms(l_step)} (median of {len(steps)}: "
          f"{ms(min(steps))} to {ms(max(steps))}) | {a_pass / l_pass:.2f}×; {a_step / l_step:.2f}× "
          f"| {mb(max(r['peak_rss_mb'] for r in rows))} |")
print()
greedy = json.load(open(os.path.join(e["COMPARE_WORK"], "greedy.json")))
_, trace = read_safetensors(os.path.join(e["COMPARE_WORK"], "trace.safetensors"))
n = len(greedy["greedy"])
ours_logits = trace["logits"].reshape(check_tokens + n - 1, -1)[check_tokens - 1:].astype(np.float64)  # (steps, V)
theirs_logits = np.array(greedy["logits"], dtype=np.float64)                                           # (steps, V)
same = int(np.sum(ours_logits.argmax(-1) == np.array(greedy["greedy"])))
print(f"Same function: after {check_tokens} random ids, llama.cpp's {n} greedy tokens are attnlab's argmax at "
      f"{same} of {n} positions (attnlab-cli trace of the ids and those tokens); largest |attnlab − llama.cpp| of "
      f"the logits before each: {np.abs(ours_logits - theirs_logits).max():.2g} (the logits up to "
      f"{np.abs(ours_logits).max():.3g} in magnitude). llama.cpp's peak RSS is node's, the runtime included; "
      f"its open took {ms(median(theirs, 'open_ms'))}.")
PY
