#!/usr/bin/env bash
# attnlab-cli flow: its JSON (nodes, edges with kind, layer, head, from, to, share; the route's nodes checked against
# fixtures/contribution.json), its table, and one line on stderr with exit 1 (bad input) or 2 (bad usage).
#   bash tests/cli/flow_contract.sh build/attnlab-cli .
set -uo pipefail
cli="$1"
root="$2"
source "$(dirname "$0")/contract_checks.sh"

g="$root/tests/golden/fixtures/hf_gpt2"
m="$root/tests/golden/fixtures/post_ln_relu.model.safetensors"
ids="--tgt-ids 49,7,23,0,41,12,12,30,5"

# The oracle's route (contribution.json, case gpt2: token 8 at 0.04) and shares renormalised per node.
check "flow json" 0 -- "$cli" flow "$g" $ids --token 8 --threshold 0.04 --json
expect_output "json keys" '^\{"edges":\[\{.*\}\],"nodes":\[\{.*\}\],"stack":"decoder","threshold":0\.04,"token":8\}$'
expect_output "json nulls the head of an FFN edge" '"from":8,"head":null,"kind":"ffn","layer":1,"share":'
python3 - "$work/out" "$root/tests/golden/fixtures/contribution.json" <<'PY' && passed=$((passed + 1)) || { echo "FAIL flow against the oracle"; failed=$((failed + 1)); }
import json, sys
got = json.load(open(sys.argv[1]))
case = [c for c in json.load(open(sys.argv[2]))["cases"] if c["case"] == "gpt2"][0]
assert sorted([n["block"], n["position"]] for n in got["nodes"]) == case["route_nodes"], got["nodes"]
into = {}
for e in got["edges"]:
    assert e["share"] > 0 and (e["head"] is None) == (e["kind"] != "attention"), e
    into[(e["block"], e["to"])] = into.get((e["block"], e["to"]), 0) + e["share"]
assert all(abs(s - 1) < 1e-9 for s in into.values()), into  # renormalised after the threshold
PY

check "flow table" 0 -- "$cli" flow "$m" --src-ids 7,4,5,4,11,2 --tgt-ids 1,4,8,7,9 --token 2 --threshold 0.1
expect_output "table header" '^contribution graph of position 2 at threshold 0\.1: [0-9]+ nodes, [0-9]+ edges$'
expect_output "table lists a cross-attention edge" '^1 +cross_attention +[0-9]+ +[0-9]+ +2 +0\.[0-9]{4}$'

check "threshold 1: the token alone" 0 -- "$cli" flow "$g" $ids --token 3 --threshold 1 --json
expect_output "no edges" '^\{"edges":\[\],"nodes":\[\{"after":"ffn","block":3,"layer":1,"position":3\}\]'
check "position past end" 1 -- "$cli" flow "$g" $ids --token 9
expect_stderr "position named" 'position 9 is past the end'
check "missing token"     2 -- "$cli" flow "$g" $ids
check "bad token"         2 -- "$cli" flow "$g" $ids --token -1
check "bad threshold"     2 -- "$cli" flow "$g" $ids --token 2 --threshold 1.5
check "threshold not a number" 2 -- "$cli" flow "$g" $ids --token 2 --threshold half
check "token id outside"  1 -- "$cli" flow "$g" --tgt-ids 4,500 --token 1

echo "flow contract: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
