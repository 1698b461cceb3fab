#!/usr/bin/env bash
# GPT-2 small's backward pass at 256 tokens, measured one after the other on this machine, as one markdown table:
# attnlab's backward (attnlab-cli bench --backward: BackwardPass::create and run_all of the next-token loss on the
# traced forward pass run to its end, the forward not included; every step's and parameter's gradient kept), PyTorch's
# loss.backward() of the same loss (bench/torch_gpt2.py --backward: the untraced forward recording autograd, every
# parameter requiring its gradient; the faster of 1 and 2 intra-op threads; OpenBLAS multiplies on every core either
# way), the GEMM bound of the backward (attnlab-cli bench --gemm-bound --backward: for each forward product C = A·B,
# dA = dC·Bᵀ and dB = Aᵀ·dC as sgemm over the threads, and the forward's products timed in the same run), the same for
# forward + backward, each process's peak resident memory (mapped weights included) and the ratios; then the largest
# relative difference between attnlab's and PyTorch's parameter gradients on the same CHECK_TOKENS ids (attnlab-cli grad
# against torch_gpt2.py --check-grads).
#   bench/compare_torch_backward.sh [CLI] [SCRATCH]   SCRATCH is the GPT-2 small-sized folder (default
#                                                      /tmp/attnlab-gpt2-124m, as compare_torch_scale.sh's DIR),
#                                                      written by tests/golden/make_hf_golden.py --gpt2-124m if missing
# ROUNDS=N (default 1) repeats the runs N times, alternating the tools, and reports the medians; REPS=N the timed
# runs per process (default 5, after two warm-ups); TOKENS (default 256); CHECK_TOKENS (default 64). About 3 minutes
# a round on an idle 2-core machine; about 3 GB of memory, and 0.6 GB of disk for the gradient file of the check.
# Needs python3-torch and libopenblas0-pthread (installed if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
dir="${2:-/tmp/attnlab-gpt2-124m}"
rounds="${ROUNDS:-1}"
reps="${REPS:-5}"
tokens="${TOKENS:-256}"
check_tokens="${CHECK_TOKENS:-64}"

source "$root/bench/compare_common.sh"
[ -f "$dir/model.safetensors" ] || /usr/bin/python3 "$root/tests/golden/make_hf_golden.py" --gpt2-124m "$dir"

echo "gradients of attnlab-cli grad and torch_gpt2.py --check-grads on $check_tokens ids" >&2
ids=$(/usr/bin/python3 -c 'import json, random, sys
cfg = json.load(open(sys.argv[1] + "/config.json"))
rng = random.Random(1)
print(",".join(str(rng.randrange(cfg["vocab_size"])) for _ in range(int(sys.argv[2]))))' "$dir" "$check_tokens")
"$cli" grad "$dir" --tgt-ids "$ids" --out "$work/grads.safetensors" > /dev/null
/usr/bin/python3 "$root/bench/torch_gpt2.py" "$dir" --check-grads "$work/grads.safetensors" >> "$work/check"
rm -f "$work/grads.safetensors"

for _ in $(seq "$rounds"); do
  echo "tokens $tokens: attnlab backward, PyTorch backward 1 thread, 2 threads, GEMM bound ($reps reps)" >&2
  "$cli" bench "$dir" --tgt-len "$tokens" --reps "$reps" --opens 1 --backward --json >> "$work/attnlab"
  for threads in 1 2; do
    /usr/bin/python3 "$root/bench/torch_gpt2.py" "$dir" --tgt-len "$tokens" --reps "$reps" --opens 1 \
      --threads "$threads" --backward >> "$work/torch"
  done
  "$cli" bench "$dir" --tgt-len "$tokens" --gemm-bound --backward --json >> "$work/bound"
done
machine_facts
report "$tokens" "$rounds" <<'PY'
import sys

from compare_report import bound_kernels_line, fastest_threads, machine_line, mb, median, ms, runs, threads_label

tokens, rounds = sys.argv[1:]
ours, bound = runs("attnlab"), runs("bound")
n_best, theirs = fastest_threads(runs("torch"), "backward_median_ms")
print(machine_line(ours[0]["threads"], rounds))
print()
print(f"| GPT-2 small, {tokens} tokens, next-token loss | attnlab | PyTorch (threads: {threads_label(n_best, theirs)}) "
      "| speed-up (PyTorch ÷ attnlab) | GEMM bound (GFLOP/s) | attnlab ÷ bound | PyTorch ÷ bound |")
print("|---|---|---|---|---|---|---|")
fwd_bound = median(bound, "forward_bound_ms")
rows = [
    ("backward alone", "backward_median_ms", "backward_median_ms", median(bound, "bound_ms"), median(bound, "gflop")),
    ("forward + backward", "forward_backward_median_ms", "forward_backward_median_ms",
     median(bound, "forward_backward_bound_ms"), median(bound, "gflop") + median(bound, "forward_gflop")),
    ("forward (attnlab traced; PyTorch recording autograd, to the loss)", "median_ms", "median_ms", fwd_bound,
     median(bound, "forward_gflop")),
]
for label, our_key, their_key, b, gflop in rows:
    a, p = median(ours, our_key), median(theirs, their_key)
    print(f"| {label} | {ms(a)} | {ms(p)} | {p / a:.2f}× | {ms(b)} ({gflop / (b / 1000):.0f}) | {a / b:.2f}× "
          f"| {p / b:.2f}× |")
print()
others = [r for r in runs("torch") if r["threads"] != n_best]
if others:
    print(f"PyTorch's backward on {others[0]['threads']} thread(s): {ms(median(others, 'backward_median_ms'))}. ", end="")
print(f"Peak RSS: attnlab {mb(max(r['peak_rss_mb'] for r in ours))} (the forward trace and the gradient of every "
      f"step and parameter kept), PyTorch {mb(max(r['peak_rss_mb'] for r in theirs))}. "
      f"Loss on the timed ids: attnlab {ours[0]['loss_value']:.6g} ({ours[0]['backward_steps']} backward steps), "
      f"PyTorch {theirs[0]['loss_value']:.6g} (other random ids).")
print()
c = runs("check")[0]
print(f"Gradients on the same {c['tokens']} random ids, next-token loss (attnlab {c['loss_attnlab']:.7g}, PyTorch "
      f"{c['loss_torch']:.7g}): the largest max|attnlab − PyTorch| ÷ max|PyTorch| over {c['params_compared']} "
      f"parameters is {c['max_rel_diff']:.2g} ({c['max_rel_diff_param']}); against a float64 PyTorch pass attnlab's "
      f"is {c['attnlab_vs_float64']:.2g} ({c['attnlab_vs_float64_param']}) and float32 PyTorch's "
      f"{c['torch_vs_float64']:.2g} ({c['torch_vs_float64_param']})"
      + (f"; missing from attnlab's file: {', '.join(c['params_missing'])}." if c["params_missing"] else "."))
print()
print(bound_kernels_line(bound))
PY
