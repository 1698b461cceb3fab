#!/usr/bin/env bash
# attnlab-cli as a user meets it: each command works on a real model, and each kind of bad
# input gets one line on stderr and exit code 1 (bad input) or 2 (bad usage), never a crash or hang.
set -uo pipefail
cli="$1"
root="$2"
source "$(dirname "$0")/contract_checks.sh"

m="$work/tiny.safetensors"
check "init"            0 -- "$cli" init --preset tiny --seed 4 --src-vocab "$root/assets/vocab/en.txt" --tgt-vocab "$root/assets/vocab/ko.txt" --out "$m"
check "info"            0 -- "$cli" info "$m"
expect_output "info lists tensors" 'encoder\.layers\.0\.self_attn\.in_proj_weight +\(192, 64\)'
expect_output "info counts parameters" '^parameters +[0-9]+'
check "steps"           0 -- "$cli" steps "$m"
expect_output "steps lists attention stages" 'decoder\.layers\.1\.cross_attn\.scaled'
check "trace text"      0 -- "$cli" trace "$m" --src "i like red apples" --tgt "나 는" --out "$work/t.safetensors"
! grep -q "NaN/Inf" "$work/err" && passed=$((passed + 1)) || { echo "FAIL a finite trace warned of NaN/Inf"; failed=$((failed + 1)); }
check "trace ids"       0 -- "$cli" trace "$m" --src-ids 5,6,7,2,0 --tgt-ids 1,8 --out "$work/t2.safetensors"
check "unknown word"    0 -- "$cli" trace "$m" --src "i like purple apples" --out "$work/t3.safetensors"
grep -q "purple" "$work/err" && passed=$((passed + 1)) || { echo "FAIL unknown word not reported"; failed=$((failed + 1)); }
check "translate"       0 -- "$cli" translate "$m" --src "we eat bread"
check "bench"           0 -- "$cli" bench --preset tiny --src-len 8 --tgt-len 8 --reps 3 --json
expect_output "bench prints median_ms" '"median_ms": [0-9.]+'

# A finite but huge weight: 3e38 in b_Q[0] and b_K[0] of the decoder's first self-attention.
# Q and K stay finite and the file loads, but QKᵀ overflows to +∞ in the T·T cells of head 0.
# The trace is still written (exit 0), with one warning naming the step where NaN/Inf first appears.
huge="$work/huge.safetensors"
cp "$m" "$huge"
header_len=$(od -An -tu8 -N8 "$huge" | tr -d ' ')
bias_begin=$(head -c $((8 + header_len)) "$huge" |
  grep -ao '"decoder\.layers\.0\.self_attn\.in_proj_bias":{"data_offsets":\[[0-9]*' | grep -o '[0-9]*$')
poke_huge() {  # poke_huge INDEX: 3e38 as little-endian F32 (e6 b1 61 7f) over element INDEX of that bias
  printf '\xe6\xb1\x61\x7f' | dd of="$huge" bs=1 seek=$((8 + header_len + bias_begin + 4 * $1)) conv=notrunc status=none
}
poke_huge 0
poke_huge 64  # C = 64: the first element of b_K
check "huge weight"     0 -- "$cli" trace "$huge" --src "i like red apples" --tgt "나 는" --out "$work/t4.safetensors"
warning='attnlab-cli: warning: NaN/Inf first appears in decoder.layers.0.self_attn.scores (9 values)'
[ "$(cat "$work/err")" = "$warning" ] && passed=$((passed + 1)) ||
  { echo "FAIL huge weight: wanted the one line '$warning' on stderr, got:"; sed 's/^/  /' "$work/err"; failed=$((failed + 1)); }
grep -aqF 'first_step\":\"decoder.layers.0.self_attn.scores\"' "$work/t4.safetensors" && passed=$((passed + 1)) ||
  { echo "FAIL huge weight: the trace's __metadata__ lacks non_finite.first_step"; failed=$((failed + 1)); }

# Hugging Face folders (tests/golden/make_hf_golden.py): mapped; without tokenizer files they run on ids only.
g="$root/tests/golden/fixtures/hf_gpt2"
b="$root/tests/golden/fixtures/hf_bert"
check "info hf gpt2"    0 -- "$cli" info "$g"
expect_output "info hf names Conv1D tensors" 'h\.0\.attn\.c_attn\.weight +\(32, 96\)'
expect_output "info hf maps tensors" '^tensors +28 \(28 read in place'
expect_output "info hf lists unused buffers" '^  h\.0\.attn\.bias$'
check "trace hf gpt2"   0 -- "$cli" trace "$g" --src-ids 49,7,23 --out "$work/hf.safetensors"
check "trace hf bert"   0 -- "$cli" trace "$b" --src-ids 2,17,3,44,3 --src-types 0,0,0,1,1 --out "$work/hfb.safetensors"
check "steps hf bert"   0 -- "$cli" steps "$b"
expect_output "steps hf bert lists new steps" 'src\.token_type'
check "bench hf"        0 -- "$cli" bench "$g" --tgt-len 8 --reps 2 --opens 2 --json
expect_output "bench hf prints open time" '"open_median_ms": [0-9.]+'
check "bench edits"     0 -- "$cli" bench "$g" --tgt-len 8 --reps 2 --opens 1 --edits --json
expect_output "bench edits times an appended token" '"first_append_ms": [0-9.]+, "append_ms": [0-9.]+, "edit_middle_ms": [0-9.]+'
check "bench by step"   0 -- "$cli" bench "$g" --tgt-len 8 --reps 2 --opens 1 --by-step --json
expect_output "bench by step times each step, summed over its layers" \
  '"by_step": \[\{"count":1,"ms":[0-9.e-]+,"path":"tgt.embed"\}.*\{"count":[2-9],"ms":[0-9.e-]+,"path":"decoder.layers.0.self_attn.scores"\}'
check "bench backward"  0 -- "$cli" bench "$g" --tgt-len 8 --reps 2 --opens 1 --backward --json
expect_output "bench backward times the backward alone and with the forward" \
  '"loss": "next-token", "loss_value": [0-9.e+-]+, "backward_steps": [0-9]+, "backward_median_ms": [0-9.]+, "backward_min_ms": [0-9.]+, "forward_backward_median_ms": [0-9.]+, "forward_backward_min_ms": [0-9.]+'
check "bench bound" 0 -- "$cli" bench "$g" --tgt-len 8 --gemm-bound --json
expect_output "bench bound from memory and in cache, the maps' weights marked" \
  '"bound_ms": [0-9.]+, "cached_bound_ms": [0-9.]+.*\{"b_is_weight":true,[^}]*Q, K, V maps"\},\{"b_is_weight":false,[^}]*QKᵀ, per head"\}'
check "bench backward bound" 0 -- "$cli" bench "$g" --tgt-len 8 --gemm-bound --backward --json
expect_output "bench backward bound beside the forward's" '"pass": "backward".*"bound_ms": [0-9.]+.*"forward_bound_ms": [0-9.]+'
check "bench bad loss"  2 -- "$cli" bench "$g" --tgt-len 8 --reps 1 --backward --loss sideways
check "bench loss alone" 2 -- "$cli" bench "$g" --tgt-len 8 --reps 1 --loss next-token
check "bench backward bert" 2 -- "$cli" bench "$b" --src-len 8 --reps 1 --backward  # encoder-only: name a token
check "bench backward id" 1 -- "$cli" bench "$g" --tgt-len 8 --reps 1 --backward --loss token:99999@0
mkdir "$work/xlnet" && echo '{"model_type": "xlnet"}' > "$work/xlnet/config.json"
check "hf unsupported"  1 -- "$cli" info "$work/xlnet"
grep -q 'unsupported model_type "xlnet"' "$work/err" && passed=$((passed + 1)) || { echo "FAIL xlnet not named"; failed=$((failed + 1)); }
check "hf text"         1 -- "$cli" trace "$g" --src "hello" --out "$work/x.safetensors"
check "hf token type"   1 -- "$cli" trace "$b" --src-ids 2,17,3 --src-types 0,5 --out "$work/x.safetensors"
check "hf bench preset" 2 -- "$cli" bench "$g" --preset tiny
# hf_bert with a vocab.txt beside it reads text with BERT's WordPiece.
bt="$work/bert_text" && mkdir "$bt" && cp "$b/config.json" "$b/model.safetensors" "$root/tests/fixtures/tokenizers/bert/vocab.txt" "$bt/"
check "info hf tokenizer" 0 -- "$cli" info "$bt"
expect_output "info hf names the tokenizer" '^tokenizer +WordPiece from vocab\.txt$'
check "trace hf text"   0 -- "$cli" trace "$bt" --src "The cats play" --out "$work/hft.safetensors"
grep -aqF 'src_ids":"[2,5,6,10,8,3]' "$work/hft.safetensors" && passed=$((passed + 1)) ||
  { echo "FAIL trace hf text: src_ids are not [CLS] the cat ##s play [SEP]"; failed=$((failed + 1)); }
# The analysis commands (their numbers: tests/core/analysis against PyTorch).
check "lens hf text"    0 -- "$cli" lens "$bt" --src "The cats play" --top 2
expect_output "lens names positions" '^position 0 "\[CLS\]"$'
expect_output "lens reads every layer" '^  encoder\.layers\.1\.norm2 '
check "heads hf"        0 -- "$cli" heads "$g" --src-ids 49,7,23 --sort previous
expect_output "heads lists every head" '^decoder\.layers\.1\.self_attn +3 '
expect_output "heads gives each head's top key and nearest head" '^decoder\.layers\.0\.self_attn +0 .* [01]\.[0-9]+ [01]\.[0-9]+ h[1-3]$'
check "lens position"   1 -- "$cli" lens "$g" --src-ids 49,7 --positions 5
check "heads bad sort"  2 -- "$cli" heads "$g" --src-ids 49 --sort size
check "detect"          0 -- "$cli" detect "$g" --bos 49 --len 5
expect_output "detect lists every head" '^decoder\.layers\.1\.self_attn +3( +[01]\.[0-9]{4}){3}$'
expect_output "detect names the best induction head" '^best induction head: decoder\.layers\.[01]\.self_attn head [0-3] \([01]\.[0-9]{4}\)$'
check "detect json"     0 -- "$cli" detect "$m" --len 4 --seed 2 --json
expect_output "detect json has the ids and the grids" '"ids":\[[0-9]+(,[0-9]+){7}\].*"induction":\[\['
check "detect too long" 1 -- "$cli" detect "$g" --len 7
check "detect bad len"  2 -- "$cli" detect "$g" --len 1
check "similar"         0 -- "$cli" similar "$m" --token 사과 --top 3
expect_output "similar lists neighbours" '^  [+-]0\.[0-9]{4} +[0-9]+  "'
check "similar unknown" 1 -- "$cli" similar "$m" --token zzzz
check "similar usage"   2 -- "$cli" similar "$m"
check "pca"             0 -- "$cli" pca "$bt" --tokens the,cat,sat,play
expect_output "pca prints coordinates" '^ +6 +[+-][0-9.]+ +[+-][0-9.]+  "cat"$'
expect_output "pca names the variance" '^pc1 explains [0-9]+\.[0-9]% of the variance, pc2 [0-9]+\.[0-9]%$'
check "pca too few"     1 -- "$cli" pca "$bt" --ids 5,5,6
check "qk list"         0 -- "$cli" qk "$bt" --layer 1 --head 2 --tokens the,cat,play
expect_output "qk labels rows and columns" '^ +cat( +[+-][0-9]+\.[0-9]{3}){3}$'
check "qk vocabulary"   0 -- "$cli" qk "$g" --layer 0 --head 1 --id 7 --top 3
expect_output "qk ranks keys" '^highest$'
check "ov vocabulary"   0 -- "$cli" ov "$bt" --layer 0 --head 0 --token cat --top 2 --json
expect_output "ov json has both ends" '"bottom":\[\{"id":[0-9]+,"token":'
check "ov toy encoder"  1 -- "$cli" ov "$m" --stack encoder --layer 0 --head 0 --ids 4
check "qk head range"   1 -- "$cli" qk "$g" --layer 0 --head 4 --ids 1,2
check "qk two lists"    2 -- "$cli" qk "$g" --layer 0 --head 0 --ids 1 --token a
check "compare ablated" 0 -- "$cli" compare "$g" --src-ids 49,7,23 --ablate decoder.layers.1.self_attn:2
expect_output "compare finds the first change" '^the traces first differ at decoder\.layers\.1\.self_attn\.context$'
m2="$work/tiny2.safetensors"
"$cli" init --preset tiny --seed 5 --src-vocab "$root/assets/vocab/en.txt" --tgt-vocab "$root/assets/vocab/ko.txt" --out "$m2" > /dev/null
check "compare models"  0 -- "$cli" compare "$m" "$m2" --src "i like red apples" --step logits --top 2
expect_output "compare lists the largest" '^ +\[[0-9]+, [0-9]+\]( +[+-][0-9.e+-]+){3}$'
check "compare itself"  2 -- "$cli" compare "$m" --src "i like"
check "compare bad ablate" 2 -- "$cli" compare "$g" --src-ids 49 --ablate decoder.layers.1.self_attn
check "compare no attention" 1 -- "$cli" compare "$g" --src-ids 49 --ablate decoder.layers.9.self_attn:0
check "compare other vocab" 1 -- "$cli" compare "$g" "$m" --src-ids 45,46
check "compare no step" 1 -- "$cli" compare "$m" "$m2" --src "i like" --step nowhere

# Bad usage: exit 2.
check "no command"      2 -- "$cli"
check "unknown command" 2 -- "$cli" frobnicate
check "unknown option"  2 -- "$cli" info "$m" --verbose
check "missing --out"   2 -- "$cli" trace "$m" --src "i like apples"
check "missing --src"   2 -- "$cli" trace "$m" --out "$work/x.safetensors"
check "flag w/o value"  2 -- "$cli" trace "$m" --src
check "both src forms"  2 -- "$cli" trace "$m" --src "i" --src-ids 4 --out "$work/x.safetensors"
check "bad preset"      2 -- "$cli" bench --preset huge
check "bad reps"        2 -- "$cli" bench --reps -3

# Bad input: exit 1.
check "missing file"    1 -- "$cli" info "$work/nope.safetensors"
check "directory"       1 -- "$cli" info "$work"
head -c 100 /dev/urandom > "$work/noise.safetensors"
check "random bytes"    1 -- "$cli" info "$work/noise.safetensors"
head -c 5000 "$m" > "$work/cut.safetensors"
check "truncated model" 1 -- "$cli" info "$work/cut.safetensors"
check "id outside vocab" 1 -- "$cli" trace "$m" --src-ids 5,999 --out "$work/x.safetensors"
check "non-numeric ids" 1 -- "$cli" trace "$m" --src-ids 5,x --out "$work/x.safetensors"
check "too long"        1 -- "$cli" trace "$m" --src "$(printf 'i %.0s' $(seq 70))" --out "$work/x.safetensors"
check "invalid UTF-8"   1 -- "$cli" trace "$m" --src $'i \xff like' --out "$work/x.safetensors"
check "unwritable out"  1 -- "$cli" trace "$m" --src "i" --out "$work/no/such/dir/t.safetensors"
check "missing vocab"   1 -- "$cli" init --preset tiny --src-vocab "$work/none.txt" --tgt-vocab "$work/none.txt" --out "$work/y.safetensors"

# compare: an --ablate name resolves against model B's attentions; each error is one line that names it.
check "compare unknown attention" 1 -- "$cli" compare "$g" --src-ids 49 --ablate decoder.layers.1.self_attn:0,encoder.layers.0.self_attn:1
expect_stderr "compare names the unknown attention" "^attnlab-cli: compare: 'encoder\.layers\.0\.self_attn' is not an attention of model B$"
check "compare head range" 1 -- "$cli" compare "$g" --src-ids 49 --ablate decoder.layers.1.self_attn:9
expect_stderr "compare names the missing head" '^attnlab-cli: compare: decoder\.layers\.1\.self_attn has no head 9 in B \(heads 0\.\.3\)$'
check "compare ablated in B" 0 -- "$cli" compare "$m" "$m" --src "i like red apples" --ablate decoder.layers.1.cross_attn:3
expect_output "compare ablates B's head" '^the traces first differ at decoder\.layers\.1\.cross_attn\.context$'
# grad: the backward pass of a loss, every gradient written; the loss and its definition in the metadata.
check "grad paper"      0 -- "$cli" grad "$root/assets/models/en-ko.safetensors" --src-ids 5,6,7,2 --tgt-ids 1,8,9,10 --out "$work/g.safetensors"
expect_output "grad prints the loss" '^loss next-token = [0-9.]+ '
grep -q '"param.decoder.layers.0.multihead_attn.in_proj_weight"' "$work/g.safetensors" && grep -q '"loss":"next-token"' "$work/g.safetensors" &&
  passed=$((passed + 1)) || { echo "FAIL grad: the file lacks a parameter gradient or the loss"; failed=$((failed + 1)); }
check "grad bert token" 0 -- "$cli" grad "$b" --src-ids 2,17,3,44,3 --loss token:7@1 --out "$work/gb.safetensors"
check "grad gpt2 diff"  0 -- "$cli" grad "$g" --tgt-ids 49,7,23 --loss logit-diff:3,4@2 --out "$work/gg.safetensors"
check "grad bad loss"   2 -- "$cli" grad "$g" --tgt-ids 49,7,23 --loss token:3 --out "$work/x.safetensors"
check "grad bert default" 2 -- "$cli" grad "$b" --src-ids 2,17,3 --out "$work/x.safetensors"
check "grad position"   1 -- "$cli" grad "$g" --tgt-ids 49,7,23 --loss token:3@3 --out "$work/x.safetensors"
check "grad one token"  1 -- "$cli" grad "$g" --tgt-ids 49 --out "$work/x.safetensors"
check "grad no out"     2 -- "$cli" grad "$g" --tgt-ids 49,7
[ ! -e "$work/x.safetensors" ] && passed=$((passed + 1)) || { echo "FAIL a failed command left a file"; failed=$((failed + 1)); }

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
