#!/usr/bin/env bash
# Times one full training step (forward, backward, Adam; dropout 0.1, label smoothing 0.1) of the
# tiny preset on the same random batch in attnlab-cli (2 threads) and in Debian's PyTorch 1.13,
# one after the other, and prints both medians and their ratio. Needs python3-torch and
# libopenblas0-pthread (installed if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
steps="${STEPS:-50}"
batch="${BATCH:-64}"

source "$root/bench/install_torch.sh"

shape=(--batch "$batch" --src-len 10 --tgt-len 11 --steps "$steps")
ours=$("$cli" bench-train --preset tiny --vocab 300 --threads 2 "${shape[@]}" --json)
# PyTorch at 2 threads and at 1: on a busy 2-core machine its 2-thread runs can stall, so the
# faster of the two is the baseline.
theirs2=$(/usr/bin/python3 "$root/bench/torch_train.py" --src-vocab 300 --tgt-vocab 300 --threads 2 "${shape[@]}")
theirs1=$(/usr/bin/python3 "$root/bench/torch_train.py" --src-vocab 300 --tgt-vocab 300 --threads 1 "${shape[@]}")
echo "$ours"
echo "$theirs2"
echo "$theirs1"
/usr/bin/python3 - "$ours" "$theirs2" "$theirs1" <<'PY'
import json, sys
a = json.loads(sys.argv[1])
t = min((json.loads(x) for x in sys.argv[2:]), key=lambda r: r["median_ms"])
print(f"training steps/s: attnlab {1000 / a['median_ms']:.1f}, torch {1000 / t['median_ms']:.1f} ({t['threads']} threads): "
      f"attnlab is {t['median_ms'] / a['median_ms']:.2f}x torch")
PY
