#!/usr/bin/env bash
# The zoo families' tiny golden folders (issue 37), each timed one after the other on this machine, as one markdown
# table: attnlab's traced forward pass (attnlab-cli bench FOLDER, in-process, median of REPS after two warm-ups,
# random ids) and PyTorch's forward of the family's own reference (bench/torch_zoo.py: the golden script's hf_forward
# on the folder's F32 weights, in float32, its logits first checked against expected.safetensors within 1e-4), at
# the folder's own length and at LONG tokens, PyTorch at attnlab's thread count and at 1 thread. A folder that is
# missing, or that attnlab or the reference cannot run, is listed under the table with its one-line reason.
#   bench/compare_torch_zoo.sh [CLI]
# ROUNDS=N (default 3) alternates the two tools N times per folder and length and reports the medians of the
# per-process medians; REPS=N timed runs per process (default 50); LONG (default 64); FAMILIES="hf_bloom hf_gemma2"
# picks folders of tests/golden/fixtures. About 6 minutes on a busy 2-core machine. Needs python3-torch.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
rounds="${ROUNDS:-3}"
reps="${REPS:-50}"
long="${LONG:-64}"
families="${FAMILIES:-hf_t5 hf_flan_t5 hf_bloom hf_smollm3 hf_gemma2 hf_gemma3 hf_olmoe hf_qwen3_moe hf_granitemoe hf_modernbert}"

source "$root/bench/compare_common.sh"

# The length of the folder's own sentence: its target's, or for an encoder-decoder both "S T"; an encoder's (ModernBERT)
# its source's twice, as bench takes a target length it does not read.
own_lengths() {
  /usr/bin/python3 -W ignore -c '
import json, sys
sys.path.insert(0, sys.argv[2])
from torch_llama import read_safetensors
meta = read_safetensors(sys.argv[1] + "/expected.safetensors")[1]
src, tgt = json.loads(meta.get("src_ids") or "[]"), json.loads(meta["tgt_ids"])
print(len(src) or len(tgt), len(tgt) or len(src))' "$1" "$root/bench"
}

timed=""
for family in $families; do
  dir="$root/tests/golden/fixtures/$family"
  if [ ! -f "$dir/config.json" ]; then
    echo "$family: no folder yet" >> "$work/skipped"
    continue
  fi
  read -r src_len tgt_len < <(own_lengths "$dir")
  if ! err=$("$cli" bench "$dir" --src-len "$src_len" --tgt-len "$tgt_len" --reps 1 --opens 1 --json 2>&1 > /dev/null) ||
    ! perr=$(/usr/bin/python3 "$root/bench/torch_zoo.py" "$dir" --reps 1 2>&1 > /dev/null); then
    echo "$family: $(printf '%s\n%s' "${err:-}" "${perr:-}" | grep -v '^$' | tail -n 1)" >> "$work/skipped"
    continue
  fi
  timed="$timed $family"
  echo "$family: attnlab and PyTorch, $tgt_len and $long tokens, $rounds alternating rounds of $reps reps" >&2
  for _ in $(seq "$rounds"); do
    for t in own "$long"; do
      if [ "$t" = own ]; then s=$src_len n=$tgt_len torch_len=0; else s=$t n=$t torch_len=$t; fi
      "$cli" bench "$dir" --src-len "$s" --tgt-len "$n" --reps "$reps" --opens 1 --json >> "$work/attnlab-$family-$t"
      threads=$(tail -n 1 "$work/attnlab-$family-$t" | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["threads"])')
      /usr/bin/python3 "$root/bench/torch_zoo.py" "$dir" --tgt-len "$torch_len" --reps "$reps" --threads "$threads" >> "$work/torch-$family-$t"
      /usr/bin/python3 "$root/bench/torch_zoo.py" "$dir" --tgt-len "$torch_len" --reps "$reps" --threads 1 >> "$work/torch1-$family-$t"
    done
  done
done
touch "$work/skipped"
machine_facts
report "$timed" "$long" "$rounds" "$reps" <<'PY'
import sys

import os

from compare_report import WORK, machine_line, median, runs


def ms(x):
    return f"{x:.3g} ms" if x < 100 else f"{x:.0f} ms"


def runs_text(name):
    with open(os.path.join(WORK, name)) as f:
        return [line.strip() for line in f if line.strip()]

timed, long, rounds, reps = sys.argv[1].split(), sys.argv[2], sys.argv[3], sys.argv[4]
threads = runs(f"attnlab-{timed[0]}-own")[0]["threads"] if timed else "?"
print(machine_line(threads, rounds))
print()
print(f"| folder | tokens | attnlab traced | PyTorch, {threads} threads (as attnlab) | attnlab ÷ PyTorch "
      "| PyTorch, 1 thread | attnlab ÷ PyTorch (1) | PyTorch's logits vs the goldens |")
print("|---|---|---|---|---|---|---|---|")
for family in timed:
    for t in ("own", long):
        ours, theirs, one = (runs(f"{k}-{family}-{t}") for k in ("attnlab", "torch", "torch1"))
        a, p, p1 = median(ours, "median_ms"), median(theirs, "median_ms"), median(one, "median_ms")
        s, n = ours[0]["src_len"], ours[0]["tgt_len"]
        check = theirs[0]["check_rel_diff"]
        print(f"| {family} | {f'{s}+{n}' if s else n}{' (its own)' if t == 'own' else ''} | {ms(a)} | {ms(p)} "
              f"| {a / p:.2g} | {ms(p1)} | {a / p1:.2g} | {'' if check is None else f'{check:.1e}'} |")
print()
print(f"Medians of {rounds} per-process medians of {reps} runs each, the tools alternating. attnlab: random ids of "
      "the length; PyTorch: the folder's own ids (its logits checked against expected.safetensors, the relative "
      "difference in the last column), random ids at the longer length.")
for line in runs_text("skipped"):
    print(f"Not timed: {line.rstrip('.')}.")
PY
