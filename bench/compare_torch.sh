#!/usr/bin/env bash
# Times the paper-base traced forward pass (32+32 tokens) in attnlab-cli and the same model in
# Debian's PyTorch (torch.nn.Transformer, OpenBLAS, 2 threads), one after the other, and prints
# both medians and their ratio. Needs python3-torch and libopenblas0-pthread (installed if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
reps="${REPS:-20}"

source "$root/bench/install_torch.sh"

ours=$("$cli" bench --preset base --src-len 32 --tgt-len 32 --reps "$reps" --json)
theirs=$(/usr/bin/python3 "$root/bench/torch_forward.py" --src-len 32 --tgt-len 32 --reps "$reps" --threads 2)
echo "$ours"
echo "$theirs"
/usr/bin/python3 - "$ours" "$theirs" <<'PY'
import json, sys
a, t = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"attnlab {a['median_ms']:.1f} ms, torch {t['median_ms']:.1f} ms: attnlab is {t['median_ms'] / a['median_ms']:.1f}x faster")
PY
