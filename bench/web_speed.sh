#!/usr/bin/env bash
# Speed in the web page against the desktop build on the same machine (issue 36), in alternating rounds:
#   bench/web_speed.sh      # ROUNDS=2 by default, 2-4 minutes a round; OUT (/tmp/attnlab-web-speed) keeps the JSON
# Assumes build/ (attnlab, attnlab-cli) and build-web/ (targets attnlab and attnlab-cli: scripts/web/build.sh)
# are built, and writes the GPT-2-small-sized folder (tests/golden/make_hf_golden.py --gpt2-124m: /usr/bin/python3
# with Debian's python3-numpy) to GPT2 (/tmp/attnlab-gpt2-124m) if it is not there.
#
# Each round, one after the other:
#   passes: attnlab-cli bench of the bundled model (assets/models/en-ko.safetensors, 32+32 tokens) and of GPT-2
#     small at 64 tokens, in the page (tests/web/bench_passes.mjs: headless Chromium, one thread, WebAssembly SIMD)
#     and natively on 1 thread and on the default threads; and each one's --gemm-bound, in the page and on 1 thread.
#   frames: the attention view and tour chapter 3 in the classroom at 1600x900, 150 frames after 10 of warm-up,
#     in the page (tests/web/bench_frames.mjs: SwiftShader's software WebGL2) and on the desktop (Xvfb: llvmpipe).
# Then the medians over the rounds, and the ratios: page ÷ desktop on 1 thread, each ÷ its own GEMM bound.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ROUNDS="${ROUNDS:-2}"
OUT="${OUT:-/tmp/attnlab-web-speed}"
GPT2="${GPT2:-/tmp/attnlab-gpt2-124m}"
CLI="$ROOT/build/attnlab-cli"
APP="$ROOT/build/attnlab"
WEB="$ROOT/build-web"
ENKO="$ROOT/assets/models/en-ko.safetensors"
for f in "$CLI" "$APP" "$WEB/bench/attnlab-cli.wasm" "$WEB/site/attnlab.wasm"; do
  [ -e "$f" ] || { echo "web_speed.sh: $f is missing: build build/ and build-web/ first" >&2; exit 1; }
done
[ -f "$GPT2/model.safetensors" ] || /usr/bin/python3 "$ROOT/tests/golden/make_hf_golden.py" --gpt2-124m "$GPT2"
rm -rf "$OUT"
mkdir -p "$OUT"

# name | the bench's arguments | its --reps in the page | on the desktop (GPT-2 small: about 15 s a pass in the page)
PASSES=(
  "en-ko|$ENKO --opens 1|50|50"
  "gpt2-64|$GPT2 --tgt-len 64 --opens 1|3|10"
)
FRAMES=(
  "attention|--view attention"
  "tour-3|--tour 3 --classroom"
)
SIZE=1600x900
page_query() { sed -E 's/--([a-z-]+) ([^-][^ ]*)/\1=\2/g; s/ --/\&/g; s/^--//' <<< "$1"; }  # --tour 3 --x: tour=3&x

echo "== $(date -u '+%F %T') $(git -C "$ROOT" rev-parse --short HEAD), $(nproc) cores," \
     "load $(cut -d' ' -f1-3 /proc/loadavg), steal $(awk '/^cpu /{print $9}' /proc/stat)" | tee "$OUT/summary.txt"
for round in $(seq "$ROUNDS"); do
  for item in "${PASSES[@]}"; do
    IFS='|' read -r name args page_reps desktop_reps <<< "$item"
    echo "-- round $round: $name"
    # shellcheck disable=SC2086
    {
      "$CLI" bench $args --reps "$desktop_reps" --json --threads 1 >> "$OUT/$name.desktop-1.jsonl"
      node "$ROOT/tests/web/bench_passes.mjs" "$WEB/bench" bench $args --reps "$page_reps" --json \
        >> "$OUT/$name.page.jsonl"
      "$CLI" bench $args --reps "$desktop_reps" --json >> "$OUT/$name.desktop.jsonl"
      "$CLI" bench $args --json --gemm-bound --threads 1 >> "$OUT/$name.desktop-1.bound.jsonl"
      node "$ROOT/tests/web/bench_passes.mjs" "$WEB/bench" bench $args --json --gemm-bound \
        >> "$OUT/$name.page.bound.jsonl"
    }
  done
  for item in "${FRAMES[@]}"; do
    name="${item%%|*}" flags="${item#*|}"
    echo "-- round $round: frames, $name"
    # shellcheck disable=SC2086
    {
      xvfb-run -a -s "-screen 0 ${SIZE}x24" "$APP" --fresh-settings --size "$SIZE" $flags --bench-frames 150 \
        | grep '^{' >> "$OUT/frames-$name.desktop.jsonl"
      node "$ROOT/tests/web/bench_frames.mjs" "$WEB/site" "$(page_query "$flags")&bench-frames=150" "$SIZE" \
        >> "$OUT/frames-$name.page.jsonl"
    }
  done
done
echo "== $(date -u '+%F %T') load $(cut -d' ' -f1-3 /proc/loadavg), steal $(awk '/^cpu /{print $9}' /proc/stat)" \
  | tee -a "$OUT/summary.txt"
python3 "$ROOT/bench/web_speed_report.py" "$OUT" "$ROUNDS" | tee -a "$OUT/summary.txt"
