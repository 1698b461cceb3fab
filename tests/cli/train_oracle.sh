#!/usr/bin/env bash
# Issue 35's training oracle: attnlab-cli train against PyTorch on the same weights and batches.
# For each tests/golden/fixtures/train20/<case> (gpt2, llama, paper), trains the case's initial model with
# attnlab-cli on the case's ids.txt -- once with SGD, once with Adam, the hyper-parameters read from its
# expected.json -- and compares with what PyTorch computed (tests/golden/make_train20_golden.py):
#   - the loss of every step in --log (one JSON object a line, {"step": k, "loss": L}, k = 1..20):
#     within 1e-4 relative for SGD, 1e-3 relative for Adam;
#   - after SGD, every tensor of sgd_final.safetensors against the same-named tensor of the saved model:
#     max |ours - torch| <= 1e-4 * max |torch| over that tensor.
# Only /usr/bin/python3's standard library is used (no numpy, no jq).
#
# usage: train_oracle.sh ATTNLAB_CLI FIXTURES_DIR
# exit 0 when every case passes, 1 otherwise; one line per check.
set -euo pipefail

# ---- everything that may change, in one place ------------------------------------------------------
CLI=${1:?usage: train_oracle.sh ATTNLAB_CLI FIXTURES_DIR}
FIXTURES=${2:?usage: train_oracle.sh ATTNLAB_CLI FIXTURES_DIR}
PY=/usr/bin/python3
CASES="gpt2 llama paper"
SGD_LOSS_RTOL=1e-4
ADAM_LOSS_RTOL=1e-3
WEIGHT_RTOL=1e-4
# The trainer's command line, built in the array ARGS: $1 init model, $2 ids file, $3 seq len, $4 batch,
# $5 steps, $6 log, $7 out; then the optimizer's flags are appended.
train_common() {
    ARGS=(train --init "$1" --data-ids "$2" --seq-len "$3" --batch "$4" --steps "$5"
          --schedule constant --dropout 0 --label-smoothing 0 --clip 0 --log "$6" --out "$7")
}
sgd_flags() { ARGS+=(--optimizer sgd --lr "$1"); }                                                    # lr
adam_flags() { ARGS+=(--optimizer adam --lr "$1" --adam-beta1 "$2" --adam-beta2 "$3" --adam-eps "$4"); }  # lr b1 b2 eps
# Where the trained weights are: a folder's model.safetensors (Hugging Face) or the file itself (ours).
trained_weights() { if [ -d "$1" ]; then echo "$1/model.safetensors"; else echo "$1"; fi; }
# -----------------------------------------------------------------------------------------------------

field() { "$PY" -c 'import json, sys; v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v = v[k]
print(v)' "$1" "$2"; }

compare_log() {  # log expected.json optimizer rtol -> prints a line, returns 1 on a mismatch
    "$PY" - "$@" <<'PYEOF'
import json, sys
log, expected, opt, rtol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
want = json.load(open(expected))[opt]["losses"]
got = []
with open(log) as f:
    for n, line in enumerate(f, 1):
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec.get("step") != len(got) + 1:
            sys.exit(f"FAIL {opt}: {log} line {n}: step {rec.get('step')}, expected {len(got) + 1}")
        got.append(float(rec["loss"]))
if len(got) != len(want):
    sys.exit(f"FAIL {opt}: {len(got)} steps logged, expected {len(want)}")
worst, at = 0.0, 1
for k, (g, w) in enumerate(zip(got, want), 1):
    r = abs(g - w) / abs(w)
    if r > worst:
        worst, at = r, k
bad = worst > rtol
print(f"{'FAIL' if bad else 'ok'} {opt}: losses {got[0]:.6f} -> {got[-1]:.6f} (torch {want[0]:.6f} -> {want[-1]:.6f}), "
      f"worst relative gap {worst:.2e} at step {at} (tolerance {rtol:g})")
sys.exit(1 if bad else 0)
PYEOF
}

compare_weights() {  # trained.safetensors sgd_final.safetensors rtol
    "$PY" - "$@" <<'PYEOF'
import array, json, struct, sys

def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    header.pop("__metadata__", None)
    data, out = raw[8 + n:], {}
    for name, info in header.items():
        b, e = info["data_offsets"]
        if info["dtype"] != "F32":
            out[name] = info["dtype"]  # only F32 tensors are compared
            continue
        a = array.array("f")
        a.frombytes(data[b:e])
        if sys.byteorder != "little":
            a.byteswap()
        out[name] = (info["shape"], a)
    return out

got, want, rtol = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
bad, worst, worst_name = [], 0.0, "all equal"
for name, (shape, w) in want.items():
    if name not in got:
        bad.append(f"{name} missing")
        continue
    if isinstance(got[name], str) or got[name][0] != shape:
        bad.append(f"{name}: {got[name] if isinstance(got[name], str) else got[name][0]}, expected F32 {shape}")
        continue
    g = got[name][1]
    scale = max(abs(x) for x in w) or 1.0
    r = max(abs(a - b) for a, b in zip(g, w)) / scale
    if r > worst:
        worst, worst_name = r, name
    if r > rtol:
        bad.append(f"{name}: max gap {r:.2e} of its largest |value|")
for line in bad[:10]:
    print(f"FAIL sgd weights: {line}")
print(f"{'FAIL' if bad else 'ok'} sgd weights: {len(want)} tensors, worst gap {worst:.2e} of the tensor's largest |value| "
      f"({worst_name}; tolerance {rtol:g})")
sys.exit(1 if bad else 0)
PYEOF
}

[ -x "$CLI" ] || { echo "no attnlab-cli at $CLI"; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
status=0
for c in $CASES; do
    dir="$FIXTURES/$c"
    exp="$dir/expected.json"
    init="$dir/$(field "$exp" init)"
    ids="$dir/$(field "$exp" data_ids)"
    T=$(field "$exp" seq_len); B=$(field "$exp" batch); S=$(field "$exp" steps)
    echo "== $c"
    for opt in sgd adam; do
        out="$WORK/$c-$opt"
        mkdir -p "$out"
        train_common "$init" "$ids" "$T" "$B" "$S" "$out/log.jsonl" "$out/model"
        if [ "$opt" = sgd ]; then
            sgd_flags "$(field "$exp" sgd.lr)"; rtol=$SGD_LOSS_RTOL
        else
            adam_flags "$(field "$exp" adam.lr)" "$(field "$exp" adam.beta1)" "$(field "$exp" adam.beta2)" \
                "$(field "$exp" adam.eps)"; rtol=$ADAM_LOSS_RTOL
        fi
        if ! "$CLI" "${ARGS[@]}" > "$out/stdout" 2> "$out/stderr"; then
            echo "FAIL $opt: attnlab-cli train exited non-zero: $(tail -n 1 "$out/stderr")"
            status=1
            continue
        fi
        compare_log "$out/log.jsonl" "$exp" "$opt" "$rtol" || status=1
        if [ "$opt" = sgd ]; then
            compare_weights "$(trained_weights "$out/model")" "$dir/$(field "$exp" sgd.final)" "$WEIGHT_RTOL" || status=1
        fi
    done
done
exit $status
