#!/usr/bin/env bash
# Renders every view of attnlab under Xvfb, on the default (bundled or tiny) and the paper-base
# model and in Korean, and checks each run exits 0 and writes a full-size PNG with many distinct
# colours. The training view is taken after a short run (--train-steps waits for it to finish),
# and the attention view once more after that run, from the trained snapshot. The playground is
# taken in both halves (its experiment through a settings file), in Korean and in presentation mode.
set -uo pipefail
app="$1"
png_stats="$2"
out="${3:-$(mktemp -d)}"
mkdir -p "$out"
passed=0
failed=0
run() {  # run NAME ARGS...
  local name="$1"
  shift
  local png="$out/$name.png"
  rm -f "$png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1600x900x24" "$app" --screenshot "$png" "$@" > "$out/$name.log" 2>&1; then
    echo "FAIL $name: attnlab exited non-zero"; sed 's/^/  /' "$out/$name.log"; failed=$((failed + 1)); return
  fi
  read -r w h colours < <("$png_stats" "$png") || { echo "FAIL $name: no readable PNG"; failed=$((failed + 1)); return; }
  if [ "$w" -ne 1600 ] || [ "$h" -ne 900 ] || [ "$colours" -lt 200 ]; then
    echo "FAIL $name: ${w}x${h}, $colours colours"; failed=$((failed + 1)); return
  fi
  echo "ok   $name: $colours colours"
  passed=$((passed + 1))
}
for view in positional attention masks residual ffn output weights training playground input model stepper; do
  run "tiny-$view" --view "$view"
done
run "trained-training" --view training --train-steps 40
run "trained-attention" --view attention --train-steps 40
run "korean-training" --view training --train-steps 20 --train-task copy --korean
run "presentation-training" --view training --train-steps 20 --train-task reverse --presentation
run "korean-attention" --view attention --korean
run "base-attention" --view attention --preset base
run "base-positional" --view positional --preset base
run "korean-playground" --view playground --korean
run "presentation-playground" --view playground --presentation
echo '{"tab": "playground", "playground": {"experiment": true}}' > "$out/playground-experiment.json"
run "playground-experiment" --view playground --settings "$out/playground-experiment.json"
run "korean-playground-experiment" --view playground --settings "$out/playground-experiment.json" --korean
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
