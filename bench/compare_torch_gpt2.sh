#!/usr/bin/env bash
# Opens a GPT-2 small-sized Hugging Face folder and times a traced forward pass on 64 tokens in
# attnlab-cli, then the same in Debian's PyTorch (bench/torch_gpt2.py, 1 and 2 threads), one after
# the other, and prints the medians and the ratio against PyTorch's faster run.
#   bench/compare_torch_gpt2.sh [CLI] [DIR]   DIR defaults to /tmp/attnlab-gpt2-124m, written by
#                                              tests/golden/make_hf_golden.py --gpt2-124m if missing
# Needs python3-torch and libopenblas0-pthread (installed if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/attnlab-cli}"
dir="${2:-/tmp/attnlab-gpt2-124m}"
reps="${REPS:-10}"

source "$root/bench/install_torch.sh"
[ -f "$dir/model.safetensors" ] || /usr/bin/python3 "$root/tests/golden/make_hf_golden.py" --gpt2-124m "$dir"

ours=$("$cli" bench "$dir" --tgt-len 64 --reps "$reps" --opens 5 --json)
torch1=$(/usr/bin/python3 "$root/bench/torch_gpt2.py" "$dir" --tgt-len 64 --reps "$reps" --threads 1)
torch2=$(/usr/bin/python3 "$root/bench/torch_gpt2.py" "$dir" --tgt-len 64 --reps "$reps" --threads 2)
printf '%s\n%s\n%s\n' "$ours" "$torch1" "$torch2"
/usr/bin/python3 - "$ours" "$torch1" "$torch2" <<'PY'
import json, sys
a, *ts = (json.loads(s) for s in sys.argv[1:])
t = min(ts, key=lambda r: r["median_ms"])
print(f"open: attnlab {a['open_median_ms']:.0f} ms (goal < 2000), torch {t['open_median_ms']:.0f} ms")
print(f"trace of 64 tokens: attnlab {a['median_ms']:.1f} ms (goal < 300), torch {t['median_ms']:.1f} ms "
      f"({t['threads']} thread(s)): attnlab is {t['median_ms'] / a['median_ms']:.2f}x as fast")
PY
