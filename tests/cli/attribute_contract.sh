#!/usr/bin/env bash
# attnlab-cli attribute: its JSON (total, and components whose values sum to it and to the logit the model
# computed), its table, and one line on stderr with exit 1 (bad input) or 2 (bad usage) for each bad argument.
#   bash tests/cli/attribute_contract.sh build/attnlab-cli .
set -uo pipefail
cli="$1"
root="$2"
source "$(dirname "$0")/contract_checks.sh"

g="$root/tests/golden/fixtures/hf_gpt2"
m="$root/tests/golden/fixtures/post_ln_relu.model.safetensors"
ids="--tgt-ids 49,7,23,0,41,12,12,30,5"

# The JSON's shares sum to its total, which is the logit the oracle's forward computed (attribution.json: gpt2).
check "attribute json" 0 -- "$cli" attribute "$g" $ids --metric logit:4@3 --json
expect_output "json has total and components" '^\{"components":\[\{.*"name":"embeddings".*\],"metric":"logit:4@3".*"total":'
expect_output "json components carry layer, head and source" '"head":2,"kind":"head","layer":1,"name":"decoder\.layers\.1\.self_attn\.head2@3","source":3,'
expect_output "json uses null where a field does not apply" '"head":null,"kind":"embedding","layer":null,"name":"embeddings","source":null'
python3 - "$work/out" <<'PY' && passed=$((passed + 1)) || { echo "FAIL json sums"; failed=$((failed + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
s = sum(c["value"] for c in d["components"])
assert abs(s - d["total"]) < 1e-9, (s, d["total"])
assert abs(d["total"] - d["metric_from_logits"]) < 1e-4, d
assert abs(d["total"] - -4.0012086067256005) < 1e-4, d["total"]  # fixtures/attribution.json, case gpt2
PY

check "attribute table" 0 -- "$cli" attribute "$m" --src-ids 7,4,5,4,11,2 --tgt-ids 1,4,8,7,9 --metric logit-diff:7,3@2 --top 5
expect_output "table header" '^logit-diff:7,3@2: the 5 largest of [0-9]+ components by \|share\|$'
expect_output "table lists a cross-attention head by source" '^decoder\.layers\.1\.cross_attn\.head1@2 +head +-0\.164[0-9]{3}$'
expect_output "table shows the sum and the logit" '^total \(sum of the shares\) +0\.2510[0-9]{2}$'
expect_output "table ends with the check" '^difference +-?[0-9.e+-]+$'

check "missing metric"   2 -- "$cli" attribute "$g" $ids
check "bad metric"       2 -- "$cli" attribute "$g" $ids --metric logit:x@1
check "prob refused"     2 -- "$cli" attribute "$g" $ids --metric prob:4@3
expect_stderr "prob says not supported yet" 'prob is not supported yet'
check "position past end" 1 -- "$cli" attribute "$g" $ids --metric logit:4@9
expect_stderr "position named" 'position 9 is past the end'
check "unknown token id" 1 -- "$cli" attribute "$g" $ids --metric logit-diff:4,50@2
expect_stderr "token named" 'token id 50 is not in the vocabulary'
check "bert"             0 -- "$cli" attribute "$root/tests/golden/fixtures/hf_bert" --src-ids 1,5,9,3 --metric logit:4@1 --top 1000
expect_output "bert's head transform bias is a component" '^head\.transform\.bias +head_transform_bias +-?[0-9]+\.[0-9]{6}$'
check "bert json"        0 -- "$cli" attribute "$root/tests/golden/fixtures/hf_bert" --src-ids 1,5,9,3 --metric logit:4@1 --json
expect_output "bert json names the head's parts" '"name":"head\.transform\.bias".*"name":"head\.norm\.bias".*"name":"cls\.predictions\.bias"'
check "decoder-only given both" 2 -- "$cli" attribute "$g" $ids --src-ids 1,2 --metric logit:4@3
check "bad top"          2 -- "$cli" attribute "$g" $ids --metric logit:4@3 --top 0

echo "attribute contract: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
