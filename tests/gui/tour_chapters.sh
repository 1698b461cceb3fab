#!/usr/bin/env bash
# Every chapter of the guided tour opens and renders under Xvfb, in English, in Korean and in
# classroom mode: attnlab exits 0 and writes a full-size PNG with many distinct colours. One
# chapter's slides are exported (its view, then each slide view), and a chapter that does not
# exist fails with one line.
set -uo pipefail
app="$1"
png_stats="$2"
out="${3:-$(mktemp -d)}"
chapters=$(grep -c "\"section\":" "$4")  # one per chapter in tour.json
mkdir -p "$out"
passed=0
failed=0
check_png() {  # check_png NAME PNG
  local w h colours
  read -r w h colours < <("$png_stats" "$2") || { echo "FAIL $1: no readable PNG"; failed=$((failed + 1)); return; }
  if [ "$w" -ne 1600 ] || [ "$h" -ne 900 ] || [ "$colours" -lt 200 ]; then
    echo "FAIL $1: ${w}x${h}, $colours colours"; failed=$((failed + 1)); return
  fi
  echo "ok   $1: $colours colours"
  passed=$((passed + 1))
}
run() {  # run NAME ARGS...
  local name="$1"
  shift
  rm -f "$out/$name.png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1600x900x24" "$app" --fresh-settings --screenshot "$out/$name.png" "$@" \
      > "$out/$name.log" 2>&1; then
    echo "FAIL $name: attnlab exited non-zero"; sed 's/^/  /' "$out/$name.log"; failed=$((failed + 1)); return
  fi
  check_png "$name" "$out/$name.png"
}
for n in $(seq 1 "$chapters"); do
  run "tour-$n" --tour "$n"
  run "tour-$n-korean-classroom" --tour "$n" --korean --classroom
done

# Slides: chapter 3 (multi-head attention) has its attention grid and one slide of the output.
rm -rf "$out/slides"
if timeout 120 xvfb-run -a -s "-screen 0 1600x900x24" "$app" --fresh-settings --tour 3 --tour-slides "$out/slides" \
    > "$out/slides.log" 2>&1; then
  count=$(ls "$out/slides"/*.png 2>/dev/null | wc -l)
  if [ "$count" -eq 2 ]; then
    for png in "$out/slides"/*.png; do check_png "slide $(basename "$png")" "$png"; done
  else
    echo "FAIL slides: $count PNGs, expected 2"; failed=$((failed + 1))
  fi
else
  echo "FAIL slides: attnlab exited non-zero"; sed 's/^/  /' "$out/slides.log"; failed=$((failed + 1))
fi

# A chapter past the end: exit 1 and one line naming the range.
if timeout 60 xvfb-run -a -s "-screen 0 1600x900x24" "$app" --fresh-settings --tour 99 --tour-slides "$out/none" \
    > "$out/bad.log" 2>&1; then
  echo "FAIL --tour 99 exited 0"; failed=$((failed + 1))
elif grep -q "the tour has chapters 1 to $chapters" "$out/bad.log" && [ "$(grep -c . "$out/bad.log")" -eq 1 ]; then
  echo "ok   --tour 99: $(cat "$out/bad.log")"; passed=$((passed + 1))
else
  echo "FAIL --tour 99 said:"; sed 's/^/  /' "$out/bad.log"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
