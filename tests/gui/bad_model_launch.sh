#!/usr/bin/env bash
# A --model that does not open (a text file, a missing path, a folder without model files, a truncated
# safetensors) at launch: attnlab still opens, on the bundled model, says why in one plain line on
# stderr ("attnlab: passwd is not a safetensors model file", never the loader's "header length …"),
# and shows the same line over the view (the screenshot is taken and checked like any other).
#   bad_model_launch.sh APP PNG_STATS ASSETS [OUT]
set -uo pipefail
app="$1"
png_stats="$2"
assets="$3"
out="${4:-$(mktemp -d)}"
mkdir -p "$out/empty-folder"
head -c 4096 "$assets/models/en-ko.safetensors" > "$out/cut.safetensors"
passed=0
failed=0
check() {  # check NAME MODEL EXPECTED-LINE
  local name="$1" model="$2" want="$3" colours w h
  rm -f "$out/$name.png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1280x720x24" "$app" --fresh-settings --model "$model" --view attention \
      --screenshot "$out/$name.png" --size 1280x720 > "$out/$name.log" 2>&1; then
    echo "FAIL $name: attnlab exited non-zero"; sed 's/^/  /' "$out/$name.log"; failed=$((failed + 1)); return
  fi
  if [ "$(cat "$out/$name.log")" != "attnlab: $want" ]; then
    echo "FAIL $name: stderr was:"; sed 's/^/  /' "$out/$name.log"; failed=$((failed + 1)); return
  fi
  read -r w h colours < <("$png_stats" "$out/$name.png") || { echo "FAIL $name: no PNG"; failed=$((failed + 1)); return; }
  if [ "$w" -ne 1280 ] || [ "$h" -ne 720 ] || [ "$colours" -lt 200 ]; then
    echo "FAIL $name: ${w}x${h}, $colours colours"; failed=$((failed + 1)); return
  fi
  echo "ok   $name: $want"
  passed=$((passed + 1))
}
check passwd /etc/passwd "passwd is not a safetensors model file"
check missing "$out/no-such-model.safetensors" "no-such-model.safetensors was not found"
check folder "$out/empty-folder" "empty-folder is a folder without config.json"
check truncated "$out/cut.safetensors" "cut.safetensors is damaged: its safetensors header cannot be read"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
