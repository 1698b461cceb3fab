#!/usr/bin/env bash
# GPT-2 small at 64, 256 and 1024 tokens, measured one after the other on this machine, as one markdown table: attnlab's
# traced forward pass (attnlab-cli bench: every step computed, the on-demand stages dropped after use), PyTorch's
# untraced one (bench/torch_gpt2.py, the faster of 1 and 2 intra-op threads; OpenBLAS multiplies on every core either
# way), the GEMM bound (attnlab-cli bench --gemm-bound: every product of the pass as sgemm over the threads), the
# machine's best sgemm (each product's faster of that bound and OpenBLAS's, bench/openblas_bound.py), each
# process's peak resident memory (mapped weights included), and the ratios; then the paper-base preset, 32+32 tokens
# traced, against its own GEMM bound.
#   bench/compare_torch_scale.sh [CLI] [DIR]   DIR defaults to /tmp/attnlab-gpt2-124m, written by
#                                               tests/golden/make_hf_golden.py --gpt2-124m if missing
# ROUNDS=N (default 1) repeats each length's runs N times, alternating the tools, and reports the medians;
# REPS=N overrides the runs per process (default 10 at 64 tokens, 5 at 256, 3 at 1024, 20 for paper base);
# LENGTHS="64 256" measures other lengths. About 5 minutes on an idle 2-core machine.
# Needs python3-torch and libopenblas0-pthread (installed if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
dir="${2:-/tmp/attnlab-gpt2-124m}"
rounds="${ROUNDS:-1}"
lengths="${LENGTHS:-64 256 1024}"

source "$root/bench/compare_common.sh"
[ -f "$dir/model.safetensors" ] || /usr/bin/python3 "$root/tests/golden/make_hf_golden.py" --gpt2-124m "$dir"

reps_for() {  # reps_for TOKENS: the runs one process times (after its two warm-up runs)
  if [ -n "${REPS:-}" ]; then echo "$REPS"; elif [ "$1" -le 64 ]; then echo 10; elif [ "$1" -le 256 ]; then echo 5; else echo 3; fi
}

for t in $lengths; do
  reps=$(reps_for "$t")
  for _ in $(seq "$rounds"); do
    echo "tokens $t: attnlab, PyTorch on 1 and on 2 intra-op threads, GEMM bound ($reps reps)" >&2
    measure_round "$t" "$cli" "$dir" torch_gpt2.py "$t" "$reps"
  done
done
for _ in $(seq "$rounds"); do
  echo "paper base 32+32: attnlab, GEMM bound" >&2
  "$cli" bench --preset base --src-len 32 --tgt-len 32 --reps "${REPS:-20}" --json >> "$work/attnlab-base"
  "$cli" bench --preset base --src-len 32 --tgt-len 32 --gemm-bound --json > "$work/bound-last"
  cat "$work/bound-last" >> "$work/bound-base"
  /usr/bin/python3 "$root/bench/openblas_bound.py" "$work/bound-last" >> "$work/best-base"
done
machine_facts
report "$lengths" "$rounds" <<'PY'
import sys

from compare_report import bound_kernels_line, fastest_threads, machine_line, mb, median, ms, runs, threads_label

lengths, rounds = sys.argv[1:]
print(machine_line(runs(f"attnlab-{lengths.split()[0]}")[0]["threads"], rounds))
print()
print("| tokens | attnlab traced | PyTorch untraced (threads: its own; OpenBLAS's) | speed-up (goal ≥ 1.5×) "
      "| GEMM bound, weights from memory (GFLOP/s) | attnlab ÷ bound (goal ≤ 1.5×) | GEMM bound, all in cache "
      "| attnlab ÷ it | best sgemm, OpenBLAS included, weights from memory (GFLOP/s) | attnlab ÷ best sgemm "
      "| attnlab peak RSS | PyTorch peak RSS |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")


def bound_cells(a, bound, best):
    """The columns from the GEMM bound to attnlab ÷ best sgemm, for attnlab's median `a`."""
    b, c, s = median(bound, "bound_ms"), median(bound, "cached_bound_ms"), median(best, "bound_ms")
    return (f"{ms(b)} ({median(bound, 'gflops'):.0f}) | {a / b:.2f}× | {ms(c)} | {a / c:.2f}× "
            f"| {ms(s)} ({median(best, 'gflops'):.0f}) | {a / s:.2f}×")


for t in lengths.split():
    ours = runs(f"attnlab-{t}")
    a = median(ours, "median_ms")
    n_best, theirs = fastest_threads(runs(f"torch-{t}"))  # the faster thread count, by the median over rounds
    p = median(theirs, "median_ms")
    print(f"| {t} | {ms(a)} | {ms(p)} ({threads_label(n_best, theirs)}) | {p / a:.2f}× "
          f"| {bound_cells(a, runs(f'bound-{t}'), runs(f'best-{t}'))} | {mb(max(r['peak_rss_mb'] for r in ours))} "
          f"| {mb(max(r['peak_rss_mb'] for r in theirs))} |")
ours = runs("attnlab-base")
a = median(ours, "median_ms")
print(f"| paper base, 32+32 | {ms(a)} | – | – | {bound_cells(a, runs('bound-base'), runs('best-base'))} "
      f"| {mb(max(r['peak_rss_mb'] for r in ours))} | – |")
print()
print(bound_kernels_line(runs("bound-base") + [x for t in lengths.split() for x in runs(f"bound-{t}")]))
everything = runs("best-base") + [x for t in lengths.split() for x in runs(f"best-{t}")]
won = sum(p["best"] == "openblas" for r in everything for p in r["products"])
print(f"Best sgemm: each product's faster of that bound and OpenBLAS (torch.mm, or torch.bmm of a shape's count, on 1 "
      f"or 2 OpenBLAS threads; bench/openblas_bound.py); OpenBLAS was the faster for {won} of "
      f"{sum(len(r['products']) for r in everything)} products timed. Weights from memory: each map's and the "
      "logits' B the next of copies filling as many bytes as the pass's weights (at most 512 MiB), as a pass reads each "
      "weight once; all in cache: the same B "
      "again and again.")
PY
