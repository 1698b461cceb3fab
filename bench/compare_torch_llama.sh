#!/usr/bin/env bash
# Random-weight Hugging Face folders shaped like SmolLM2-135M (llama, F32, one file) and Qwen2.5-0.5B (qwen2, BF16, two
# shards), measured one after the other on this machine, as one markdown table: the time attnlab takes to open each
# (attnlab-cli bench's in-process open: map, widen BF16 to F32, check every value finite; the first open after the
# weight files were dropped from the page cache, and the median of OPENS in that process), attnlab's traced forward pass
# of TOKENS random ids (attnlab-cli bench), PyTorch's untraced one (bench/torch_llama.py, the faster of 1 and 2 intra-op
# threads; OpenBLAS multiplies on every core either way), the GEMM bound of the pass (attnlab-cli bench --gemm-bound),
# each process's peak resident memory (mapped weights included) and the ratios; then the largest difference between the
# two implementations' logits on the same 64 ids (attnlab-cli trace against bench/torch_llama.py --check).
#   bench/compare_torch_llama.sh [CLI] [SCRATCH]   SCRATCH (default /tmp/attnlab-llama-bench) holds the folders
#                                                   smollm2-135m and qwen2.5-0.5b, written by
#                                                   tests/golden/make_hf_llama_golden.py --write-bench if missing
# ROUNDS=N (default 1) repeats each model's runs N times, alternating the tools, and reports the medians;
# REPS=N the timed runs per process (default 3, after two warm-ups); TOKENS (default 256); OPENS (default 5);
# SHAPES="smollm2-135m" measures one. About 5 minutes a round on a busy 2-core machine; 1.5 GB of disk, about
# 5 GB of memory. Needs python3-torch and libopenblas0-pthread (installed if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
scratch="${2:-/tmp/attnlab-llama-bench}"
rounds="${ROUNDS:-1}"
reps="${REPS:-3}"
tokens="${TOKENS:-256}"
opens="${OPENS:-5}"
shapes="${SHAPES:-smollm2-135m qwen2.5-0.5b}"
check_tokens=64

source "$root/bench/compare_common.sh"

source "$root/bench/page_cache.sh"

for shape in $shapes; do
  dir="$scratch/$shape"
  [ -f "$dir/config.json" ] || /usr/bin/python3 "$root/tests/golden/make_hf_llama_golden.py" --write-bench "$dir" --shape "$shape"
  echo "$shape: logits of attnlab-cli trace and torch_llama.py on $check_tokens ids" >&2
  ids=$(/usr/bin/python3 -c 'import json, random, sys
cfg = json.load(open(sys.argv[1] + "/config.json"))
rng = random.Random(1)
print(",".join(str(rng.randrange(cfg["vocab_size"])) for _ in range(int(sys.argv[2]))))' "$dir" "$check_tokens")
  "$cli" trace "$dir" --tgt-ids "$ids" --out "$work/trace-$shape.safetensors" > /dev/null
  /usr/bin/python3 "$root/bench/torch_llama.py" "$dir" --check "$work/trace-$shape.safetensors" >> "$work/check-$shape"
  rm -f "$work/trace-$shape.safetensors"
done
for _ in $(seq "$rounds"); do
  for shape in $shapes; do
    dir="$scratch/$shape"
    echo "$shape: attnlab open (first cold), $tokens tokens: attnlab, PyTorch on 1 and on 2 intra-op threads, GEMM bound ($reps reps)" >&2
    evict "$dir"
    "$cli" bench "$dir" --tgt-len 1 --reps 1 --opens "$opens" --json >> "$work/open-$shape"
    measure_round "$shape" "$cli" "$dir" torch_llama.py "$tokens" "$reps"
  done
done
machine_facts
report "$shapes" "$tokens" "$rounds" "$opens" "$check_tokens" <<'PY'
import sys

from compare_report import bound_kernels_line, fastest_threads, machine_line, mb, median, ms, runs, threads_label

shapes, tokens, rounds, opens, check_tokens = sys.argv[1:]
names = {"smollm2-135m": "SmolLM2-135M shape, F32", "qwen2.5-0.5b": "Qwen2.5-0.5B shape, BF16, 2 shards"}
print(machine_line(runs(f"attnlab-{shapes.split()[0]}")[0]["threads"], rounds))
print()
print(f"| model | attnlab open: cold, warm (goal < 2 s) | PyTorch open | attnlab traced, {tokens} tokens "
      "| PyTorch untraced (threads: its own; OpenBLAS's) | speed-up (goal ≥ 1.5×) | GEMM bound, weights from memory "
      "(GFLOP/s) | attnlab ÷ bound | attnlab ÷ bound, all in cache | attnlab ÷ best sgemm, OpenBLAS included "
      "| attnlab peak RSS | PyTorch peak RSS |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
checks = []
for shape in shapes.split():
    opened, ours, bound = runs(f"open-{shape}"), runs(f"attnlab-{shape}"), runs(f"bound-{shape}")
    n_best, theirs = fastest_threads(runs(f"torch-{shape}"))
    a, p, b = median(ours, "median_ms"), median(theirs, "median_ms"), median(bound, "bound_ms")
    best = median(runs(f"best-{shape}"), "bound_ms")
    print(f"| {names.get(shape, shape)} | {ms(median(opened, 'open_first_ms'))}, {ms(median(opened, 'open_median_ms'))} "
          f"| {ms(median(theirs, 'open_median_ms'))} | {ms(a)} | {ms(p)} ({threads_label(n_best, theirs)}) | {p / a:.2f}× "
          f"| {ms(b)} ({median(bound, 'gflops'):.0f}) | {a / b:.2f}× | {a / median(bound, 'cached_bound_ms'):.2f}× "
          f"| {a / best:.2f}× ({ms(best)}) "
          f"| {mb(max(r['peak_rss_mb'] for r in ours))} "
          f"| {mb(max(r['peak_rss_mb'] for r in theirs))} |")
    c = runs(f"check-{shape}")[0]
    checks.append(f"{names.get(shape, shape)}: {c['max_abs_diff_last']:.2g} at the last position (its logits up to "
                  f"{c['max_abs_logit_last']:.3g} in magnitude, {'the same' if c['same_argmax_last'] else 'a different'}"
                  f" top token), {c['max_abs_diff_all']:.2g} over all positions")
print()
print(f"attnlab open: the first of {opens} opens in one process after the weight files were dropped from the page "
      f"cache, and the median of the {opens}. Largest |attnlab − PyTorch| of the logits on the same {check_tokens} "
      "random ids: " + "; ".join(checks) + ".")
print()
print(bound_kernels_line([x for s in shapes.split() for x in runs(f"bound-{s}")]))
PY
