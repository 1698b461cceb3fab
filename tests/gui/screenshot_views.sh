#!/usr/bin/env bash
# Renders every view of attnlab under Xvfb, on the default (bundled or tiny) and the paper-base
# model and in Korean, and checks each run exits 0 and writes a full-size PNG with many distinct
# colours. The training view is taken after a short run (--train-steps waits for it to finish; --train-on
# trains the opened GPT-2 fixture on a file),
# and the attention view once more after that run, from the trained snapshot. The playground is
# taken in both halves (its experiment through a settings file), in Korean and in presentation mode, and the
# Output view mid-generation token by token (--generate N), in classroom mode too, and its "Why this output?" at
# 1024x768, 1280x720 and 1920x1080, and its "Patching" at 1024x768, 1280x720 and 1920x1080.
#   screenshot_views.sh APP PNG_STATS [OUT] [sanitized]   sanitized: a sanitizer build, many times
#                                                         slower: shorter training runs, longer limits
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
app="$1"
png_stats="$2"
out="${3:-$(mktemp -d)}"
sanitized=$([ "${4:-}" = sanitized ] && echo 1 || echo 0)
limit=$([ "$sanitized" = 1 ] && echo 600 || echo 120)
train_steps=$([ "$sanitized" = 1 ] && echo 20 || echo 40)
mkdir -p "$out"
passed=0
failed=0
run() {  # run NAME ARGS...; screen=WxH run ...: at that size (a projector's 1024x768, full HD)
  local name="$1"
  shift
  local png="$out/$name.png" size="${screen:-1600x900}"
  local want_w="${size%x*}" want_h="${size#*x}"
  rm -f "$png"
  timeout "$limit" xvfb-run -a -s "-screen 0 ${size}x24" "$app" --screenshot "$png" --size "$size" "$@" \
    > "$out/$name.log" 2>&1
  local status=$?
  if [ "$status" -eq 124 ]; then
    echo "FAIL $name: still running after $limit s"; failed=$((failed + 1)); return
  elif [ "$status" -ne 0 ]; then
    echo "FAIL $name: attnlab exited $status"; sed 's/^/  /' "$out/$name.log"; failed=$((failed + 1)); return
  fi
  read -r w h colours < <("$png_stats" "$png") || { echo "FAIL $name: no readable PNG"; failed=$((failed + 1)); return; }
  if [ "$w" -ne "$want_w" ] || [ "$h" -ne "$want_h" ] || [ "$colours" -lt 200 ]; then
    echo "FAIL $name: ${w}x${h}, $colours colours"; failed=$((failed + 1)); return
  fi
  echo "ok   $name: $colours colours"
  passed=$((passed + 1))
}
for view in positional attention masks residual ffn output weights training playground analysis input model stepper; do
  run "tiny-$view" --view "$view"
done
run "trained-training" --view training --train-steps "$train_steps"
run "trained-attention" --view attention --train-steps "$train_steps"
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
echo '{"analysis": {"tool": "head_summary"}}' > "$out/analysis-heads.json"
run "korean-analysis-heads" --view analysis --settings "$out/analysis-heads.json" --korean
echo '{"analysis": {"tool": "embeddings"}}' > "$out/analysis-embeddings.json"
run "analysis-embeddings" --view analysis --settings "$out/analysis-embeddings.json"
# A Hugging Face folder with its tokenizer (hf_bert and tests/fixtures/tokenizers/bert's vocab.txt).
mkdir -p "$out/hf_bert" && cp "$root/tests/golden/fixtures/hf_bert/"{config.json,model.safetensors} \
  "$root/tests/fixtures/tokenizers/bert/vocab.txt" "$out/hf_bert/"
run "hf-bert-analysis" --view analysis --model "$out/hf_bert" --src "the cats play"
run "hf-gpt2-attention" --view attention --model "$root/tests/golden/fixtures/hf_gpt2/config.json"
echo '{"analysis": {"tool": "circuits"}}' > "$out/analysis-qk.json"
run "analysis-qk" --view analysis --settings "$out/analysis-qk.json"
echo '{"analysis": {"tool": "circuits", "circuit": {"ov": true, "layer": 1, "head": 2}}}' > "$out/analysis-ov.json"
run "korean-analysis-ov" --view analysis --settings "$out/analysis-ov.json" --korean
echo '{"analysis": {"tool": "compare", "compare": {"ablated": [{"use": "decoder_self", "layer": 1, "head": 2}, {"use": "decoder_self", "layer": 1, "head": 0}]}}}' > "$out/analysis-compare.json"
run "analysis-compare" --view analysis --settings "$out/analysis-compare.json"
echo '{"analysis": {"tool": "compare", "compare": {"ablated": [{"use": "decoder_self", "layer": 0, "head": 1}], "step": "decoder.layers.1.self_attn.weights"}}}' > "$out/compare-weights.json"
run "korean-compare-weights" --view analysis --settings "$out/compare-weights.json" --korean
# The compare tool's B from a model file that is not there (read off the window's thread): one line in the panel.
echo '{"analysis": {"tool": "compare", "compare": {"other_model": true, "other_path": "/nonexistent/model.safetensors"}}}' \
  > "$out/compare-bad-file.json"
screen=1024x768 run "korean-compare-bad-file-1024x768" --view analysis --settings "$out/compare-bad-file.json" --korean
echo '{"analysis": {"tool": "circuits", "circuit": {"layer": 1, "head": 3, "tokens": "the cat play sat"}}}' > "$out/hf-bert-qk.json"
run "hf-bert-qk" --view analysis --model "$out/hf_bert" --src "the cats play" --settings "$out/hf-bert-qk.json"
# A model with rotary positions: the positional view is the RoPE view (a prompt of token ids: no tokenizer).
run "hf-llama-rope" --view positional --model "$root/tests/golden/fixtures/hf_llama" --src "1 14 9 17 6 3 22 8 30 12 5 7"
run "korean-hf-llama3-rope" --view positional --model "$root/tests/golden/fixtures/hf_llama3_scaled" \
  --src "1 14 9 17 6 3 22 8 30 12 5 7" --korean
# The positional view's "All schemes side by side": the bundled model (its sinusoids) in English at 1024x768 and in
# Korean at 1920x1080, and the Llama fixture (RoPE its own, a causal attention beside it) in Korean at 1280x720.
echo '{"positional": {"compare": {"on": true}}}' > "$out/positional-compare.json"
screen=1024x768 run "positional-compare-1024x768" --view positional --settings "$out/positional-compare.json"
screen=1920x1080 run "korean-positional-compare-1920x1080" --view positional --settings "$out/positional-compare.json" \
  --korean
screen=1280x720 run "korean-hf-llama-positional-compare-1280x720" --view positional \
  --model "$root/tests/golden/fixtures/hf_llama" --src "1 14 9 17 6 3 22 8 30 12 5 7" \
  --settings "$out/positional-compare.json" --korean
# ALiBi: the BLOOM fixture's attention at head 4 (the steepest slope, 1/2) on its "+ bias" stage (the scaled scores
# plus −m·(i − j)), in English at 1024x768 and in Korean at 1920x1080.
echo '{"attention": {"family": "decoder_self", "layer": 1, "head": 4, "detail_open": true, "stage": "biased"}}' \
  > "$out/hf-bloom-biased.json"
screen=1024x768 run "hf-bloom-biased-1024x768" --view attention --model "$root/tests/golden/fixtures/hf_bloom" \
  --src "1 17 5 40 22 9 31 12" --settings "$out/hf-bloom-biased.json"
screen=1920x1080 run "korean-hf-bloom-biased-1920x1080" --view attention --model "$root/tests/golden/fixtures/hf_bloom" \
  --src "1 17 5 40 22 9 31 12" --settings "$out/hf-bloom-biased.json" --korean
# SmolLM3's NoPE layer: the attention grid tags layer 3 "NoPE" (Q and K not rotated), the others "RoPE".
screen=1024x768 run "hf-smollm3-attention-1024x768" --view attention --model "$root/tests/golden/fixtures/hf_smollm3" \
  --src "48 21 9 33 14 21 40 5 26"
# The opened model trained on a file: the GPT-2 fixture on token ids, in Korean (its loss, then the views follow).
awk 'BEGIN { for (i = 0; i < 400; ++i) printf "%d ", 4 + (i * 7) % 40 }' > "$out/gpt2.ids"
echo '{"train": {"batch_size": 4, "seq_len": 8, "threads": 1}}' > "$out/train-opened.json"
run "korean-hf-gpt2-training" --view training --model "$root/tests/golden/fixtures/hf_gpt2" --train-steps 20 \
  --train-on "$out/gpt2.ids" --settings "$out/train-opened.json" --korean
run "output-generating" --view output --generate 3
run "korean-classroom-output-generating" --view output --generate 4 --classroom --korean
# The Output view's "Why this output?" (direct logit attribution): the bundled model, on a projector and in full HD,
# in English and Korean; the GPT-2 fixture with a logit difference.
echo '{"output": {"why": {"open": true}}}' > "$out/output-why.json"
echo '{"output": {"why": {"open": true, "diff": true}}}' > "$out/output-why-diff.json"
run "output-why" --view output --settings "$out/output-why.json"
screen=1024x768 run "output-why-1024x768" --view output --settings "$out/output-why.json"
screen=1024x768 run "korean-output-why-1024x768" --view output --settings "$out/output-why.json" --korean
screen=1920x1080 run "output-why-1920x1080" --view output --settings "$out/output-why.json"
screen=1920x1080 run "korean-output-why-1920x1080" --view output --settings "$out/output-why.json" --korean
screen=1280x720 run "hf-gpt2-output-why-diff-1280x720" --view output --model "$root/tests/golden/fixtures/hf_gpt2" \
  --src "49 7 23 0 41 12 12 30 5" --settings "$out/output-why-diff.json"
# The Output view's "Patching" (activation patching beside its gradient estimate): the bundled model with a corrupted
# source of the same length ("red" → "green"), in English and Korean at 1024x768 (the decoder's residual stream) and
# 1920x1080 (the encoder's, over the source tokens); the GPT-2 fixture with one prompt token changed and a logit
# difference, at 1280x720. The grids come from a thread: 20 frames leave them time.
echo '{"output": {"patching": {"open": true, "corrupt": "i like green apples"}}}' > "$out/output-patching-1024x768.json"
echo '{"output": {"why": {"diff": true}, "patching": {"open": true, "corrupt": "49 7 11 0 41 12 12 30 5"}}}' \
  > "$out/output-patching-gpt2.json"
echo '{"output": {"patching": {"open": true, "corrupt": "i like green apples", "piece": "enc-residual"}}}' \
  > "$out/output-patching-1920x1080.json"
for size in 1024x768 1920x1080; do
  screen=$size run "output-patching-$size" --view output --settings "$out/output-patching-$size.json" --frames 20
  screen=$size run "korean-output-patching-$size" --view output --settings "$out/output-patching-$size.json" \
    --korean --frames 20
done
screen=1280x720 run "hf-gpt2-output-patching-1280x720" --view output --model "$root/tests/golden/fixtures/hf_gpt2" \
  --src "49 7 23 0 41 12 12 30 5" --settings "$out/output-patching-gpt2.json" --frames 20
# The Residual view's contribution graph: the bundled en-ko model, on a projector and in full HD, in English and
# Korean; the GPT-2 fixture at a lower threshold (its random heads' shares are small), at 1280x720.
echo '{"residual": {"contribution": true}}' > "$out/residual-flow.json"
echo '{"residual": {"contribution": true, "flow_threshold": 0.01}}' > "$out/residual-flow-gpt2.json"
for size in 1024x768 1920x1080; do
  screen=$size run "residual-flow-$size" --view residual --settings "$out/residual-flow.json"
  screen=$size run "korean-residual-flow-$size" --view residual --settings "$out/residual-flow.json" --korean
done
screen=1280x720 run "hf-gpt2-residual-flow-1280x720" --view residual --model "$root/tests/golden/fixtures/hf_gpt2" \
  --src "49 7 23 0 41 12 12 30 5" --settings "$out/residual-flow-gpt2.json"
# The Analysis view's head detectors: the bundled induction model (trained induction heads) and en-ko, on a projector
# and in full HD, in English and Korean.
echo '{"analysis": {"tool": "head_detectors"}}' > "$out/detectors.json"
for size in 1024x768 1920x1080; do
  for model in induction en-ko; do
    screen=$size run "detectors-$model-$size" --view analysis --model "$root/assets/models/$model.safetensors" \
      --settings "$out/detectors.json"
    screen=$size run "korean-detectors-$model-$size" --view analysis --model "$root/assets/models/$model.safetensors" \
      --settings "$out/detectors.json" --korean
  done
done
# The Attention view's "Knockout": the bundled model's last cross-attention, the edge 좋아해 → i blocked in every head
# (the metric before → after), and the layer's grid of changes (from a thread: 20 frames leave it time), in English
# and Korean at 1024x768 and 1920x1080.
echo '{"attention": {"family": "cross", "detail_open": true, "layer": 1, "head": 2, "knockout": {"on": true,
  "every_head": true, "query": 6, "key": 0}}}' > "$out/knockout-edge.json"
echo '{"attention": {"family": "cross", "detail_open": true, "layer": 1, "head": 2, "knockout": {"on": true,
  "every_head": true, "grid": true, "query": 6, "key": 0}}}' > "$out/knockout-grid.json"
screen=1024x768 run "attention-knockout-1024x768" --view attention --settings "$out/knockout-edge.json"
screen=1024x768 run "korean-attention-knockout-grid-1024x768" --view attention --settings "$out/knockout-grid.json" \
  --korean --frames 20
screen=1920x1080 run "attention-knockout-grid-1920x1080" --view attention --settings "$out/knockout-grid.json" --frames 20
screen=1920x1080 run "korean-attention-knockout-1920x1080" --view attention --settings "$out/knockout-edge.json" --korean
# T5: the fixture's encoder self-attention on its "+ bias" stage (the learned bias of each bucket of distance, the keys
# after the query in buckets of their own), from text through its spiece.model, in Korean at 1024x768.
echo '{"attention": {"family": "encoder_self", "layer": 1, "head": 2, "detail_open": true, "stage": "biased"}}' \
  > "$out/hf-t5-biased.json"
screen=1024x768 run "korean-hf-t5-biased-1024x768" --view attention --model "$root/tests/golden/fixtures/hf_t5" \
  --src "The model reads the sentence." --settings "$out/hf-t5-biased.json" --korean
# Gemma 2: a local layer's attention (window 3) on its "soft cap" stage, c·tanh(x/c) of the scaled scores, in
# English at 1024x768 and in Korean at 1920x1080.
echo '{"attention": {"family": "decoder_self", "layer": 0, "head": 1, "detail_open": true, "stage": "capped"}}' \
  > "$out/hf-gemma2-capped.json"
screen=1024x768 run "hf-gemma2-capped-1024x768" --view attention --model "$root/tests/golden/fixtures/hf_gemma2" \
  --src "2 17 33 5 41 12 12 29 8" --settings "$out/hf-gemma2-capped.json"
screen=1920x1080 run "korean-hf-gemma2-capped-1920x1080" --view attention \
  --model "$root/tests/golden/fixtures/hf_gemma2" --src "2 17 33 5 41 12 12 29 8" \
  --settings "$out/hf-gemma2-capped.json" --korean
# A mixture of experts' router view (the FFN view of the OLMoE fixture's layer 0): each token's two experts with their
# routing weights, the load per expert and the last token's experts' hidden units, in Korean at 1024x768.
screen=1024x768 run "korean-hf-olmoe-router-1024x768" --view ffn --model "$root/tests/golden/fixtures/hf_olmoe" \
  --src "2 17 33 5 41 12 12 29 8" --korean
# Granite-MoE's router view (its packed experts, softmax over the top 2: each token's two weights sum to 1), in English
# at 1280x720.
screen=1280x720 run "hf-granitemoe-router-1280x720" --view ffn --model "$root/tests/golden/fixtures/hf_granitemoe" \
  --src "48 21 7 33 12 40 21 5 16"
# ModernBERT: the Masks view of its fixture, from text through its tokenizer.json ([CLS] … [SEP]): the encoder's mask
# beside its local layers' copy cut to |i − j| ≤ W/2, in English at 1024x768.
screen=1024x768 run "hf-modernbert-masks-1024x768" --view masks --model "$root/tests/golden/fixtures/hf_modernbert" \
  --src "The quick brown fox [MASK] over the lazy dog."
# Gemma 3's attention grid: local layers (W 3) tagged beside its one global layer, in English at 1280x720; Qwen3-MoE's
# router view at 1920x1080; Flan-T5's gated-GELU FFN (gate, up and their product), in Korean at 1280x720.
screen=1280x720 run "hf-gemma3-grid-1280x720" --view attention --model "$root/tests/golden/fixtures/hf_gemma3" \
  --src "2 17 33 5 41 12 12 29 8"
screen=1920x1080 run "hf-qwen3-moe-router-1920x1080" --view ffn --model "$root/tests/golden/fixtures/hf_qwen3_moe" \
  --src "2 17 33 5 41 12 12 29 8"
screen=1280x720 run "korean-hf-flan-t5-ffn-1280x720" --view ffn --model "$root/tests/golden/fixtures/hf_flan_t5" \
  --src "5 17 33 8 21 12 1" --korean
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
