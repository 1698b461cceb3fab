#!/usr/bin/env bash
# A 1B-class model at 2,048 tokens (issue 39, goal 2): a random-weight Hugging Face folder shaped like Llama-3.2-1B
# (hidden 2048, 16 layers, 32 heads, 8 KV heads, FFN 8192, vocabulary 128,256, tied embeddings, rope_theta 500000 with
# llama3 scaling; BF16 in two shards with model.safetensors.index.json, as the hub ships it), and one markdown table:
# the folder's size, attnlab's open time (attnlab-cli bench's in-process open: the first after the shards were dropped
# from the page cache, and the median of OPENS in that process), the traced pass of TOKENS random ids (attnlab-cli
# bench --reps 1: one timed pass after two warm-ups), each process's peak resident memory (mapped weights included),
# and whether the pass's peak is within the BF16 files + 3 GiB, with what the trace keeps (trace_keep.h) and its size. Works whether attnlab keeps BF16 weights as BF16 or
# widens them to F32 on open: the open's own peak RSS (about the files' size, or twice it) says which it did.
#   bench/bench_1b.sh [CLI] [SCRATCH]   SCRATCH (default /tmp/attnlab-1b-bench) holds the folder llama3.2-1b, written by
#                                       tests/golden/make_hf_llama_golden.py --write-bench if missing (~1 minute)
# TOKENS (default 2048); OPENS (default 5); LIMIT_GB (default 16): the bench processes' address-space limit
# (ulimit -v), so that a pass that needs more than the machine can spare fails alone instead of waking the OOM killer
# (GNU time then gives its peak RSS, and the table says it failed).
# About 5 minutes on a quiet 2-core machine; 2.5 GB of disk.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
scratch="${2:-/tmp/attnlab-1b-bench}"
tokens="${TOKENS:-2048}"
opens="${OPENS:-5}"
limit_gb="${LIMIT_GB:-16}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export COMPARE_WORK="$work"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

dir="$scratch/llama3.2-1b"
[ -f "$dir/model.safetensors.index.json" ] ||
  /usr/bin/python3 "$root/tests/golden/make_hf_llama_golden.py" --write-bench "$dir" --shape llama3.2-1b >&2

source "$root/bench/page_cache.sh"

# bench NAME ARGS...: attnlab-cli bench's JSON line into $work/NAME, GNU time's peak RSS and exit into NAME.time
bench() {
  local name=$1
  shift
  (ulimit -v $((limit_gb * 1024 * 1024)) && /usr/bin/time -o "$work/$name.time" \
    -f '{"max_rss_kb": %M, "wall_s": %e, "exit": %x}' "$cli" bench "$dir" "$@" --json > "$work/$name") || true
}

echo "attnlab open: first cold, then $opens in one process" >&2
evict "$dir"
bench open --tgt-len 1 --reps 1 --opens "$opens"
echo "attnlab traced pass of $tokens tokens (two warm-ups, one timed)" >&2
bench pass --tgt-len "$tokens" --reps 1 --opens 1

export COMPARE_COMMIT COMPARE_CPU COMPARE_ISA COMPARE_CORES COMPARE_LOAD_BEFORE COMPARE_LOAD_AFTER COMPARE_BYTES
COMPARE_COMMIT="${ATTNLAB_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo "?")}"
COMPARE_CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
COMPARE_ISA=$(grep -q -m1 -w avx512f /proc/cpuinfo && echo "AVX-512" || echo "AVX2")
COMPARE_CORES="$(lscpu | sed -n 's/^Core(s) per socket:[[:space:]]*//p') cores × $(lscpu | sed -n 's/^Thread(s) per core:[[:space:]]*//p') threads"
COMPARE_LOAD_BEFORE=$load_before
COMPARE_LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
COMPARE_BYTES=$(cat "$dir"/*.safetensors | wc -c)

PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/bench" /usr/bin/python3 - "$tokens" "$opens" "$limit_gb" <<'PY'
import datetime
import json
import os
import sys

from compare_report import WORK, mb, ms, runs

tokens, opens, limit_gb = map(int, sys.argv[1:])
e = os.environ


def run(name):
    """(the bench's JSON or None when it failed, GNU time's record with what stopped it)."""
    text = open(os.path.join(WORK, name + ".time")).read()
    timed = json.loads(text.strip().splitlines()[-1])
    timed["how"] = text.strip().splitlines()[0] if "signal" in text else f"exit status {timed['exit']}"
    got = runs(name)
    return (got[0] if got else None), timed


def failed(timed):
    return (f"failed ({timed['how']}, after {timed['wall_s']:.0f} s, at the {limit_gb} GiB address-space "
            "limit or short of memory)")


(opened, open_time), (traced, pass_time) = run("open"), run("pass")
files_mb = int(e["COMPARE_BYTES"]) / 2**20
goal_mb = files_mb + 3 * 1024
peak = pass_time["max_rss_kb"] / 1024  # GNU time's, which a failed pass has too (ru_maxrss, as bench's own)
print(f"{datetime.date.today().isoformat()}, attnlab {e['COMPARE_COMMIT']}: {e['COMPARE_CPU']}, {e['COMPARE_ISA']}, "
      f"{e['COMPARE_CORES']}; load average {e['COMPARE_LOAD_BEFORE']} before, {e['COMPARE_LOAD_AFTER']} after; "
      f"attnlab on {(traced or opened or {}).get('threads', '?')} threads")
print()
print(f"| folder | attnlab open: cold; warm (goal < 3 s) | peak RSS of the open | traced pass, {tokens:,} tokens "
      f"({traced['steps'] if traced else '?'} steps) | its peak RSS | goal: BF16 files + 3 GiB | within |")
print("|---|---|---|---|---|---|---|")
open_cells = (f"{ms(opened['open_first_ms'])}; {ms(opened['open_median_ms'])} | {mb(opened['peak_rss_mb'])}" if opened
              else f"{failed(open_time)} | {mb(open_time['max_rss_kb'] / 1024)}")
pass_cell = (f"{ms(traced['median_ms'])}; the trace keeps {traced['trace_keep']}, {mb(traced['trace_mb'])}" if traced
             else failed(pass_time))
print(f"| Llama-3.2-1B shape, BF16, 2 shards, {mb(files_mb)} | {open_cells} | {pass_cell} | {mb(peak)} "
      f"| {mb(goal_mb)} | {'yes' if traced and peak <= goal_mb else 'no'}: {peak / files_mb:.2f}× the files |")
print()
print(f"Open: the first of {opens} opens in one process after the shards were dropped from the page cache, and the "
      f"median of the {opens}. The traced pass: one timed run after two warm-ups, every step computed, and kept as "
      "the app keeps them (attnlab-cli bench --keep automatic: past 1 GiB of attention weights and logits, the "
      "checkpoints only, the rest recomputed when asked; the size is the trace's after the run). Peak RSS is each "
      "process's ru_maxrss, the mapped shards included.")
PY
