#!/usr/bin/env bash
# GPT-2 small at 64, 256 and 1024 tokens, measured one after the other on this machine, as one markdown table:
# attnlab's traced forward pass (attnlab-cli bench: every step computed, the on-demand stages dropped after use),
# PyTorch's untraced one (bench/torch_gpt2.py, the faster of 1 and 2 threads), the GEMM bound (attnlab-cli bench
# --gemm-bound: every product of the pass as sgemm over the threads), each process's peak resident memory (mapped
# weights included), and the ratios; then
# the paper-base preset, 32+32 tokens traced, against its own GEMM bound.
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

source "$root/bench/install_torch.sh"
[ -f "$dir/model.safetensors" ] || /usr/bin/python3 "$root/tests/golden/make_hf_golden.py" --gpt2-124m "$dir"

reps_for() {  # reps_for TOKENS: the runs one process times (after its two warm-up runs)
  if [ -n "${REPS:-}" ]; then echo "$REPS"; elif [ "$1" -le 64 ]; then echo 10; elif [ "$1" -le 256 ]; then echo 5; else echo 3; fi
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for t in $lengths; do
  reps=$(reps_for "$t")
  for _ in $(seq "$rounds"); do
    echo "tokens $t: attnlab, PyTorch 1 thread, PyTorch 2 threads, GEMM bound ($reps reps)" >&2
    "$cli" bench "$dir" --tgt-len "$t" --reps "$reps" --opens 1 --json >> "$work/attnlab-$t"
    /usr/bin/python3 "$root/bench/torch_gpt2.py" "$dir" --tgt-len "$t" --reps "$reps" --opens 1 --threads 1 >> "$work/torch-$t"
    /usr/bin/python3 "$root/bench/torch_gpt2.py" "$dir" --tgt-len "$t" --reps "$reps" --opens 1 --threads 2 >> "$work/torch-$t"
    "$cli" bench "$dir" --tgt-len "$t" --gemm-bound --json >> "$work/bound-$t"
  done
done
for _ in $(seq "$rounds"); do
  echo "paper base 32+32: attnlab, GEMM bound" >&2
  "$cli" bench --preset base --src-len 32 --tgt-len 32 --reps "${REPS:-20}" --json >> "$work/attnlab-base"
  "$cli" bench --preset base --src-len 32 --tgt-len 32 --gemm-bound --json >> "$work/bound-base"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
isa=$(grep -m1 -o -w -e avx512f -e avx2 /proc/cpuinfo | sort -u | tr '\n' ' ' || true)
commit=$(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo "?")
/usr/bin/python3 - "$work" "$lengths" "$cpu" "$(nproc)" "${isa% }; PyTorch on OpenBLAS's ${OPENBLAS_CORETYPE:-own choice of} kernels" "$load_before" "$load_after" "$commit" "$rounds" <<'PY'
import datetime, json, statistics, sys

work, lengths, cpu, cores, isa, load_before, load_after, commit, rounds = sys.argv[1:]

def runs(name):
    with open(f"{work}/{name}") as f:
        return [json.loads(line) for line in f if line.strip()]

def median(rows, key):
    return statistics.median(r[key] for r in rows)

def ms(x):
    return f"{x / 1000:.2f} s" if x >= 1000 else f"{x:.1f} ms"

def mb(x):
    return f"{x / 1024:.2f} GiB" if x >= 1024 else f"{x:.0f} MiB"

threads = runs(f"attnlab-{lengths.split()[0]}")[0]["threads"]
print(f"{datetime.date.today().isoformat()}, attnlab {commit}: {cpu}, {cores} cores, {isa}; "
      f"load average {load_before} before, {load_after} after; attnlab on {threads} threads; "
      f"medians of {rounds} alternating round(s)")
print()
print("| tokens | attnlab traced | PyTorch untraced (threads) | speed-up (goal ≥ 1.5×) | GEMM bound (GFLOP/s) "
      "| attnlab ÷ bound (goal ≤ 1.5×) | attnlab peak RSS | PyTorch peak RSS |")
print("|---|---|---|---|---|---|---|---|")
for t in lengths.split():
    ours, theirs, bound = runs(f"attnlab-{t}"), runs(f"torch-{t}"), runs(f"bound-{t}")
    a = median(ours, "median_ms")
    # the faster thread count, by the median over rounds of each
    by_threads = {n: [r for r in theirs if r["threads"] == n] for n in sorted({r["threads"] for r in theirs})}
    n_best = min(by_threads, key=lambda n: median(by_threads[n], "median_ms"))
    p = median(by_threads[n_best], "median_ms")
    b = median(bound, "bound_ms")
    print(f"| {t} | {ms(a)} | {ms(p)} ({n_best}) | {p / a:.2f}× | {ms(b)} ({median(bound, 'gflops'):.0f}) "
          f"| {a / b:.2f}× | {mb(max(r['peak_rss_mb'] for r in ours))} "
          f"| {mb(max(r['peak_rss_mb'] for r in by_threads[n_best]))} |")
ours, bound = runs("attnlab-base"), runs("bound-base")
a, b = median(ours, "median_ms"), median(bound, "bound_ms")
print(f"| paper base, 32+32 | {ms(a)} | – | – | {ms(b)} ({median(bound, 'gflops'):.0f}) | {a / b:.2f}× "
      f"| {mb(max(r['peak_rss_mb'] for r in ours))} | – |")
kernels = sorted({f"{p['kernel']} ({p['split']})" for r in runs("bound-base") + [x for t in lengths.split()
                  for x in runs(f"bound-{t}")] for p in r["products"]})
print()
print("GEMM bound: each product's fastest way among those timed: " + ", ".join(kernels) + ".")
PY
