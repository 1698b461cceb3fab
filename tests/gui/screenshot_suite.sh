#!/usr/bin/env bash
# The classroom screenshot suite: every view and every tour chapter, and the views only a setting or a
# switch reaches, in English and Korean, at the sizes people project (1024x768, 1280x720, 1366x768,
# 1920x1080), in normal and classroom modes; and on a 4K screen (3840x2160, without --scale: the type
# grows with the window) every view and chapter in classroom mode. Each run must exit 0 and write a PNG of
# exactly the asked size with many distinct colours; the PNGs stay in OUT (named SIZE-LANG-MODE-WHAT.png)
# for a person to look at. Measured on 2 shared cores: about 1.3 s a shot (3.6 minutes a size, 170 shots)
# below 4K, 3.8 s at 4K (3.4 minutes for its 54).
#   screenshot_suite.sh APP PNG_STATS OUT TOUR_JSON [sanitized]
#   sanitized: a sanitizer build, many times slower: 1280x720 in Korean only
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
app="$1"
png_stats="$2"
out="$3"
chapters=$(grep -c "\"section\":" "$4")  # one per chapter in tour.json
sizes=(1024x768 1280x720 1366x768 1920x1080)
uhd=3840x2160  # a subset: a 4K shot costs three below it (the software rasteriser's pixels)
langs=(en ko)
limit=60
if [ "${5:-}" = sanitized ]; then
  sizes=(1280x720)
  uhd=""
  langs=(ko)
  limit=600
fi
views=(positional attention masks residual ffn output weights training playground analysis)
# Outside classroom mode the Input, Model and Stepper views are side panels beside every view, and --view
# input (model, stepper) shows the central pane's first view, positional: those shots were positional's,
# byte for byte. Classroom mode makes them tabs of their own, so only there are they taken.
side_views=(input model stepper)
mkdir -p "$out"
rm -f "$out"/*.png

# What only a setting, a switch or a model reaches: the Analysis view's embeddings (PCA) map, the Attention view's
# BertViz-style head view, the Output view at T = 0.5 (its bars and the stepper's line name their T), the
# changes bar with a head switched off, and the RoPE view (the positional view of a model with rotary positions:
# hf_llama, and hf_llama3_scaled for its llama3 frequency scaling; their prompt is token ids, from a file since
# the flags are split at spaces). NAME then the flags.
echo '{"analysis": {"tool": "embeddings"}}' > "$out/embeddings.json"
echo '{"attention": {"detail_open": true, "line_view": true}}' > "$out/head_view.json"
echo '{"output": {"temperature": 0.5}}' > "$out/temperature.json"
echo '1 14 9 17 6 3 22 8 30 12 5 7' > "$out/rope_prompt.txt"
extras=("analysis-embeddings --view analysis --settings $out/embeddings.json"
        "attention-headview --view attention --settings $out/head_view.json"
        "output-t05 --view output --settings $out/temperature.json"
        "changes-headoff --view attention --head-off encoder_self:0:1"
        "positional-rope --view positional --model $root/tests/golden/fixtures/hf_llama --src-file $out/rope_prompt.txt"
        "positional-rope-llama3 --view positional --model $root/tests/golden/fixtures/hf_llama3_scaled --src-file $out/rope_prompt.txt")
# The tour's part on today's models with a Llama-family model the learner opened: the RoPE chapter keeps hf_llama
# (its card says so), and the grouped-query chapter gives way to the tour's own model when the one opened
# (hf_llama_linear, 3 query heads and 3 K/V heads) has no grouped-query attention (its card says why).
tour_json="$4"
chapter_of() { grep -B1 '"section":' "$tour_json" | grep -o '"id": "[^"]*"' | grep -n "\"$1\"" | cut -d: -f1; }
extras+=("tour-rope-hf_llama --tour $(chapter_of rope) --model $root/tests/golden/fixtures/hf_llama --src-file $out/rope_prompt.txt"
         "tour-gqa-hf_llama_linear --tour $(chapter_of grouped-query) --model $root/tests/golden/fixtures/hf_llama_linear --src-file $out/rope_prompt.txt")
# A Marian folder (hf_marian, with its SentencePiece files): its sinusoids in halves, its cross-attention, and the
# tour's cross-attention chapter keeping it.
echo 'the cat sat on the mat' > "$out/marian_src.txt"
echo '{"attention": {"family": "cross"}}' > "$out/cross.json"
marian="--model $root/tests/golden/fixtures/hf_marian --src-file $out/marian_src.txt"
extras+=("marian-positional --view positional $marian"
         "marian-cross --view attention --settings $out/cross.json $marian"
         "tour-cross-hf_marian --tour $(chapter_of cross-attention) $marian")
# The backward half (--backward: the backward pass run to its end): the attention grid's and the detail's
# ∂L/∂weights, the FFN's and the residual stream's gradients, the Output view's loss and saliency, and a Llama
# folder's grouped heads.
echo '{"attention": {"detail_open": true}}' > "$out/detail.json"
extras+=("backward-attention --view attention --backward"
         "backward-detail --view attention --settings $out/detail.json --backward"
         "backward-ffn --view ffn --backward"
         "backward-residual --view residual --backward"
         "backward-output --view output --backward"
         "backward-hf_llama --view attention --backward --model $root/tests/golden/fixtures/hf_llama --src-file $out/rope_prompt.txt")

# One X server for the whole suite; each run is a separate attnlab process with fresh settings.
export out app png_stats limit
cat > "$out/run_one.sh" <<'EOF'
#!/usr/bin/env bash
# run_one.sh NAME SIZE ARGS...: one screenshot, checked; prints "ok NAME" or "FAIL NAME: why".
name="$1"
size="$2"
shift 2
png="$out/$name.png"
timeout "$limit" "$app" --fresh-settings --size "$size" --screenshot "$png" "$@" > "$out/$name.log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  echo "FAIL $name: attnlab exited $status: $(head -c 300 "$out/$name.log" | tr '\n' ' ')"; exit 0
fi
read -r w h colours < <("$png_stats" "$png") || { echo "FAIL $name: no readable PNG"; exit 0; }
if [ "${w}x${h}" != "$size" ] || [ "$colours" -lt 200 ]; then
  echo "FAIL $name: ${w}x${h} (asked $size), $colours colours"; exit 0
fi
echo "ok   $name: $colours colours"
EOF
chmod +x "$out/run_one.sh"

jobs_file="$out/jobs.txt"
: > "$jobs_file"
for size in "${sizes[@]}" $uhd; do
  for lang in "${langs[@]}"; do
    lang_flag=$([ "$lang" = ko ] && echo --korean || echo "")
    for mode in normal classroom; do
      mode_flag=$([ "$mode" = classroom ] && echo --classroom || echo "")
      [ "$size" = "$uhd" ] && [ "$mode" = normal ] && continue  # 4K: classroom, the projector's mode, only
      mode_views=("${views[@]}")
      [ "$mode" = classroom ] && mode_views+=("${side_views[@]}")
      for view in "${mode_views[@]}"; do
        echo "$size-$lang-$mode-$view $size --view $view $lang_flag $mode_flag" >> "$jobs_file"
      done
      for extra in "${extras[@]}"; do
        [ "$size" = "$uhd" ] && break  # 4K: the views and chapters, not the extras
        read -r name flags <<< "$extra"
        echo "$size-$lang-$mode-$name $size $flags $lang_flag $mode_flag" >> "$jobs_file"
      done
      for n in $(seq 1 "$chapters"); do
        echo "$size-$lang-$mode-tour$n $size --tour $n $lang_flag $mode_flag" >> "$jobs_file"
      done
    done
  done
done

results="$out/results.txt"
timeout 3000 xvfb-run -a -s "-screen 0 3840x2160x24" bash -c "while read -r line; do \"$out/run_one.sh\" \$line; done" \
  < "$jobs_file" > "$results" 2>&1
grep -v '^ok' "$results"
passed=$(grep -c '^ok' "$results")
expected=$(grep -c . "$jobs_file")
echo "$passed of $expected screenshots passed (PNGs in $out)"
[ "$passed" -eq "$expected" ]
