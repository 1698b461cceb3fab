#!/usr/bin/env bash
# attnlab-cli knockout: its JSON (metric before, after and change for one edge; rows, cols and values for --grid,
# each checked against fixtures/knockout.json: GPT-2's decoder self-attention, our post-LN family's encoder self-
# and cross-attention), its text, and one line on stderr with exit 1 (bad input) or 2 (bad usage) for each bad
# argument.
#   bash tests/cli/knockout_contract.sh build/attnlab-cli .
set -uo pipefail
cli="$1"
root="$2"
source "$(dirname "$0")/contract_checks.sh"

fx="$root/tests/golden/fixtures"
g="$fx/hf_gpt2"
gpt2_ids="--tgt-ids 49,7,23,0,41,12,12,30,5"
ours_ids="--src-ids 7,4,5,4,11,2 --tgt-ids 1,4,8,7,9"

# One case of knockout.json: the command's JSON against the oracle's before, after or grid.
oracle() {  # oracle CASE MODEL "IDS" [--head H] (--edge Q,K | --grid)
  local case="$1" model="$2" ids="$3"
  shift 3
  local spec attention layer
  read -r spec attention layer < <(python3 -c "
import json, sys
c = [c for c in json.load(open(sys.argv[1]))['cases'] if c['case'] == sys.argv[2]][0]
print(c['metric'], c['attention'], c['layer'])" "$fx/knockout.json" "$case")
  check "knockout $case json" 0 -- "$cli" knockout "$model" $ids --metric "$spec" --attention "$attention" --layer "$layer" "$@" --json
  python3 - "$work/out" "$fx/knockout.json" "$case" <<'PY' && passed=$((passed + 1)) || { echo "FAIL knockout $case against the oracle"; failed=$((failed + 1)); }
import json, sys
got = json.load(open(sys.argv[1]))
case = [c for c in json.load(open(sys.argv[2]))["cases"] if c["case"] == sys.argv[3]][0]
close = lambda a, b: abs(a - b) <= 1e-4 + 1e-4 * abs(b)
assert got["metric"] == case["metric"] and got["layer"] == case["layer"], got
assert got["head"] == (None if case["head"] < 0 else case["head"]), got
assert close(got["before"], case["before"]), got
if "edge" in case:
    assert got["edge"] == case["edge"] and close(got["after"], case["after"]), got
    assert close(got["change"], got["after"] - got["before"]) and got["already_masked"] is False, got
else:
    want = case["grid"]
    assert got["rows"] == len(want) and got["cols"] == len(want[0]), got
    for gr, wr in zip(got["values"], want):
        for x, w in zip(gr, wr):
            assert (x is None) == (w is None), (x, w)
            assert w is None or abs(x - w) <= 1e-4 + 1e-4 * abs(case["before"]), (x, w)
PY
}
oracle gpt2-edge-all "$g" "$gpt2_ids" --edge 8,3
oracle gpt2-edge-head "$g" "$gpt2_ids" --head 2 --edge 5,0
oracle gpt2-grid-head "$g" "$gpt2_ids" --head 3 --grid
oracle ours-encoder "$fx/post_ln_relu.model.safetensors" "$ours_ids" --head 0 --edge 2,4
oracle ours-cross-grid "$fx/post_ln_relu.model.safetensors" "$ours_ids" --grid
expect_output "grid json keys" '^\{"attention":"cross","before":.*"cols":6,"head":null,"layer":1,"metric":"logit:9@3","rows":5,"values":\[\[.*\]\]\}$'

check "edge text" 0 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 0 --head 1 --edge 2,6
expect_output "edge text line" '^logit:7@8: -?[0-9.]+ -> -?[0-9.]+ \(change \+0\.000000\); the mask already blocks this edge$'
# A probability is a metric knockout reads like any other (attribution alone refuses it): before, the runner-up's
# 0.023176 that `lens` shows at position 8; blocking 8 -> 3 in every head of layer 1 lowers it.
check "prob edge" 0 -- "$cli" knockout "$g" $gpt2_ids --metric prob:37@8 --attention decoder-self --layer 1 --edge 8,3
expect_output "prob edge line" '^prob:37@8: 0\.023176 -> 0\.0[0-9]+ \(change -0\.0[0-9]*[1-9][0-9]*\)$'
check "grid text" 0 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 1 --grid
expect_output "grid text rows" '^       8( +-?[0-9.]+){9}$'

check "query past end"    1 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 0 --edge 9,0
expect_stderr "query named" 'query 9 is past the end: the attention has 9 queries \(0 to 8\)'
check "layer past end"    1 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 2 --edge 1,0
expect_stderr "layer named" 'layer 2 is outside 0..1 of the decoder self-attention'
check "head past end"     1 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 0 --head 4 --edge 1,0
expect_stderr "head named" 'head 4 is outside 0..3'
check "no cross"          1 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention cross --layer 0 --grid
expect_stderr "attention named" 'this model has no cross-attention'
check "metric position"   1 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@9 --attention decoder-self --layer 0 --grid
check "unknown attention" 2 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention self --layer 0 --grid
check "missing attention" 2 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --layer 0 --grid
check "missing layer"     2 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --grid
check "missing metric"    2 -- "$cli" knockout "$g" $gpt2_ids --attention decoder-self --layer 0 --grid
check "edge and grid"     2 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 0 --grid --edge 1,0
check "bad edge"          2 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 0 --edge 1
check "bad head"          2 -- "$cli" knockout "$g" $gpt2_ids --metric logit:7@8 --attention decoder-self --layer 0 --head x --grid

echo "knockout contract: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
