#!/usr/bin/env bash
# Every chapter of the guided tour opens and renders under Xvfb, in English, in Korean and in
# classroom mode: attnlab exits 0 and writes a full-size PNG with many distinct colours. In
# classroom mode at projector sizes (1280x720 and 1024x768, in English and Korean) each chapter runs
# with --check-tour-target: the widget its task asks for (the mask to click, the slider to move, the
# token chips), the widgets it says to watch (the RoPE pairs and score plot, the padding masks) and the
# card's task must be fully on screen together, and no table cell may be narrower than its text (the
# "why √d_k" table's numbers), or attnlab exits 1 saying which. One
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
check_png() {  # check_png NAME PNG [WxH]
  local w h colours size="${3:-1600x900}"
  read -r w h colours < <("$png_stats" "$2") || { echo "FAIL $1: no readable PNG"; failed=$((failed + 1)); return; }
  if [ "$w" -ne "${size%x*}" ] || [ "$h" -ne "${size#*x}" ] || [ "$colours" -lt 200 ]; then
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
# run_checked NAME WxH ARGS...: classroom mode at that size, with the on-screen check of the task's widget.
run_checked() {
  local name="$1" size="$2"
  shift 2
  rm -f "$out/$name.png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 ${size}x24" "$app" --fresh-settings --screenshot "$out/$name.png" \
      --size "$size" --classroom --check-tour-target "$@" > "$out/$name.log" 2>&1; then
    echo "FAIL $name: $(tail -1 "$out/$name.log")"; failed=$((failed + 1)); return
  fi
  check_png "$name" "$out/$name.png" "$size"
}
for n in $(seq 1 "$chapters"); do
  run "tour-$n" --tour "$n"
  run "tour-$n-korean-classroom" --tour "$n" --korean --classroom
  run_checked "tour-$n-classroom-1280x720" 1280x720 --tour "$n"
  run_checked "tour-$n-korean-classroom-1280x720" 1280x720 --tour "$n" --korean
  run_checked "tour-$n-classroom-1024x768" 1024x768 --tour "$n"
  run_checked "tour-$n-korean-classroom-1024x768" 1024x768 --tour "$n" --korean
done

# Slides: chapter 3 (multi-head attention) has its attention grid and one slide of the output. A slide is
# the view alone under its title (no menu, side panels or stepper), 1920x1080 whatever --size says.
check_slide() {  # check_slide NAME PNG
  local w h colours
  read -r w h colours < <("$png_stats" "$2") || { echo "FAIL $1: no readable PNG"; failed=$((failed + 1)); return; }
  if [ "$w" -ne 1920 ] || [ "$h" -ne 1080 ] || [ "$colours" -lt 200 ]; then
    echo "FAIL $1: ${w}x${h}, $colours colours"; failed=$((failed + 1)); return
  fi
  echo "ok   $1: ${w}x${h}, $colours colours"
  passed=$((passed + 1))
}
rm -rf "$out/slides"
if timeout 120 xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --fresh-settings --tour 3 --tour-slides "$out/slides" \
    --size 1280x720 > "$out/slides.log" 2>&1; then
  count=$(ls "$out/slides"/*.png 2>/dev/null | wc -l)
  if [ "$count" -eq 2 ]; then
    for png in "$out/slides"/*.png; do check_slide "slide $(basename "$png")" "$png"; done
  else
    echo "FAIL slides: $count PNGs, expected 2"; failed=$((failed + 1))
  fi
else
  echo "FAIL slides: attnlab exited non-zero"; sed 's/^/  /' "$out/slides.log"; failed=$((failed + 1))
fi

# A chapter past the end: exit 1 and one line naming the range. xvfb-run's own complaints (on a loaded machine,
# "problem while cleaning up temporary directory") are not the app's and are left out of the count.
if timeout 60 xvfb-run -a -s "-screen 0 1600x900x24" "$app" --fresh-settings --tour 99 --tour-slides "$out/none" \
    2>&1 | grep -v '^xvfb-run: ' > "$out/bad.log"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
  echo "FAIL --tour 99 exited 0"; failed=$((failed + 1))
elif grep -q "the tour has chapters 1 to $chapters" "$out/bad.log" && [ "$(grep -c . "$out/bad.log")" -eq 1 ]; then
  echo "ok   --tour 99: $(cat "$out/bad.log")"; passed=$((passed + 1))
else
  echo "FAIL --tour 99 said:"; sed 's/^/  /' "$out/bad.log"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
