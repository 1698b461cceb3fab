#!/usr/bin/env bash
# attnlab-cli patch: its JSON (clean, corrupt, rows, cols, values; the exact grid and --approx gradient, each
# checked against fixtures/patching.json: GPT-2's decoder pieces under logit-diff, logit and prob metrics, Marian's
# encoder and cross-attention pieces), its table, and one line on stderr with exit 1 (bad input) or 2 (bad usage)
# for each bad argument (a piece the model lacks among them).
#   bash tests/cli/patch_contract.sh build/attnlab-cli .
set -uo pipefail
cli="$1"
root="$2"
source "$(dirname "$0")/contract_checks.sh"

g="$root/tests/golden/fixtures/hf_gpt2"
m="$root/tests/golden/fixtures/post_ln_relu.model.safetensors"
run="--clean-ids 49,7,23,0,41,12,12,30,5 --corrupt-ids 49,7,11,0,41,12,12,30,5"

mar="$root/tests/golden/fixtures/hf_marian"
mar_run="--clean-ids 5,17,9,30,12,0 --corrupt-ids 5,17,40,30,12,0 --tgt-ids 143,8,21,3,14"

# Both grids against the oracle (patching.json: the case's ids, metric and piece).
oracle() {  # oracle CASE MODEL "RUN FLAGS" METRIC WHAT
  local case="$1" model="$2" flags="$3" metric="$4" what="$5" approx
  for approx in "" "--approx gradient"; do
    check "patch $case $what $approx json" 0 -- "$cli" patch "$model" $flags --metric "$metric" --what "$what" $approx --json
    python3 - "$work/out" "$root/tests/golden/fixtures/patching.json" "$case" "$what" "$approx" <<'PY' && passed=$((passed + 1)) || { echo "FAIL patch $case $what $approx against the oracle"; failed=$((failed + 1)); }
import json, sys
got = json.load(open(sys.argv[1]))
case = [c for c in json.load(open(sys.argv[2]))["cases"] if c["case"] == sys.argv[3] and c["piece"] == sys.argv[4]][0]
assert got["metric"] == case["metric"] and got["what"] == case["piece"], got
want = case["gradient" if sys.argv[5] else "values"]
assert got["rows"] == len(want) and got["cols"] == len(want[0]), (got["rows"], got["cols"])
assert abs(got["clean"] - case["clean"]) < 1e-4 and abs(got["corrupt"] - case["corrupt"]) < 1e-4, got
for gr, wr in zip(got["values"], want):
    for g, w in zip(gr, wr):
        assert abs(g - w) < 1e-4 + 1e-4 * abs(w), (g, w)
assert got["method"] == ("gradient" if sys.argv[5] else "exact")
assert ("gradient_correlation" in got) == (not sys.argv[5])
PY
  done
}
oracle gpt2 "$g" "$run" logit-diff:7,23@8 residual
oracle gpt2_logit "$g" "$run" logit:7@8 residual
oracle gpt2_prob "$g" "$run" prob:37@8 heads
expect_output "json keys" '^\{"clean":.*"cols":4,"corrupt":.*"method":"gradient","metric":"prob:37@8","normalised":\[\[.*"rows":2,"values":\[\[.*"what":"heads"\}$'
# An encoder-decoder's pieces: the encoder's heads (encoder layer x head), the cross-attention's output (decoder
# layer x target position).
oracle marian "$mar" "$mar_run" logit-diff:21,8@3 enc-heads
oracle marian "$mar" "$mar_run" logit-diff:21,8@3 cross-out
check "patch enc-residual table" 0 -- "$cli" patch "$mar" $mar_run --metric logit:21@3 --what enc-residual
expect_output "enc table header" '^enc-residual patching of layer x source position \(exact\): clean 1\.364[0-9]+, corrupt 1\.783[0-9]+$'
expect_output "enc table rows: 6 source positions" '^layer   1( +-?[0-9.]+| +nan){6}$'

check "patch table" 0 -- "$cli" patch "$m" --clean-ids 7,4,5,4,11,2 --corrupt-ids 7,9,5,4,11,2 --tgt-ids 1,4,8,7,9 --metric logit-diff:7,3@2 --what ffn-out
expect_output "table header" '^ffn-out patching of layer x position \(exact\): clean -?[0-9.]+, corrupt -?[0-9.]+$'
expect_output "table rows" '^layer   1( +-?[0-9.]+| +nan){5}$'
expect_output "table agreement" '^Pearson correlation with the gradient estimate: -?[0-9.]+$'

check "lengths differ"    1 -- "$cli" patch "$g" --clean-ids 49,7,23 --corrupt-ids 49,7 --metric logit:4@1 --what residual
expect_stderr "lengths named" 'the clean and corrupted prompt differ in length: 3 and 2 tokens'
check "position past end" 1 -- "$cli" patch "$g" $run --metric logit:4@9 --what residual
expect_stderr "position named" 'position 9 is past the end'
check "unknown token id"  1 -- "$cli" patch "$g" $run --metric logit-diff:4,50@2 --what residual
expect_stderr "token named" 'token id 50 is not in the vocabulary'
check "corrupt id outside" 1 -- "$cli" patch "$g" --clean-ids 4,5 --corrupt-ids 4,500 --metric logit:4@1 --what heads
check "init a model with a vocabulary" 0 -- "$cli" init --preset tiny --seed 4 --src-vocab "$root/assets/vocab/en.txt" --tgt-vocab "$root/assets/vocab/ko.txt" --out "$work/tiny.safetensors"
check "text"              0 -- "$cli" patch "$work/tiny.safetensors" --clean "i like red apples" --corrupt "i like green apples" --tgt-ids 1,4 --metric logit:4@1 --what residual --json
expect_output "text: the decoder's 2 layers x 2 target positions" '"cols":2,.*"rows":2,'
check "unknown word"      1 -- "$cli" patch "$work/tiny.safetensors" --clean "i like red apples" --corrupt "i like zzqx apples" --tgt-ids 1,4 --metric logit:4@1 --what heads
expect_stderr "word named" "'zzqx' is not in the vocabulary"
check "target differs is impossible: one --tgt" 0 -- "$cli" patch "$m" --clean-ids 7,4,2 --corrupt-ids 7,5,2 --tgt-ids 1,4 --metric logit:4@1 --what attn-out --json
check "piece the model lacks" 1 -- "$cli" patch "$g" $run --metric logit:4@3 --what enc-residual
expect_stderr "lacking piece named" 'enc-residual patches an encoder-decoder.s encoder: this model is decoder-only'
check "bert lacks cross-attention" 1 -- "$cli" patch "$root/tests/golden/fixtures/hf_bert" --clean-ids 2,17,31,8,3 --corrupt-ids 2,17,40,8,3 --metric logit:25@1 --what cross-heads
expect_stderr "bert: encoder-only" 'cross-heads patches an encoder-decoder.s cross-attention: this model is encoder-only'
check "bad prob"          2 -- "$cli" patch "$g" $run --metric prob:4 --what residual
check "missing metric"    2 -- "$cli" patch "$g" $run --what residual
check "missing what"      2 -- "$cli" patch "$g" $run --metric logit:4@3
check "unknown what"      2 -- "$cli" patch "$g" $run --metric logit:4@3 --what mlp
check "bad approx"        2 -- "$cli" patch "$g" $run --metric logit:4@3 --what residual --approx linear
check "clean twice"       2 -- "$cli" patch "$g" $run --clean "a b" --metric logit:4@3 --what residual
check "no corrupt"        2 -- "$cli" patch "$g" --clean-ids 4,5 --metric logit:4@1 --what residual

echo "patch contract: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
