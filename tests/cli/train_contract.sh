#!/usr/bin/env bash
# attnlab-cli train and eval as a user meets them: a short run learns and checkpoints, eval
# scores the checkpoint, Ctrl-C (SIGINT) stops with the model saved, a SIGKILL at a random
# moment leaves the last checkpoint readable, and bad flags or paths fail with one line.
#   train_contract.sh CLI            the whole contract
#   train_contract.sh CLI sanitized  for a sanitizer build, many times slower: the same paths with a
#                                    40-step run, whose score is printed but too early to judge
set -uo pipefail
cli="$1"
sanitized=$([ "${2:-}" = sanitized ] && echo 1 || echo 0)
learn_steps=$([ "$sanitized" = 1 ] && echo 40 || echo 300)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }

check() {  # check NAME EXPECTED_CODE -- command...
  local name="$1" want="$2"
  shift 3
  timeout 300 "$@" > "$work/out" 2> "$work/err"
  local code=$?
  if [ "$code" -ne "$want" ]; then bad "$name: exit $code, wanted $want"; sed 's/^/  /' "$work/err" | tail -n 5; return; fi
  if [ "$want" -ne 0 ] && { [ "$(wc -l < "$work/err")" -ne 1 ] || ! grep -q '^attnlab-cli: ' "$work/err"; }; then
    bad "$name: wanted one 'attnlab-cli:' line on stderr"; sed 's/^/  /' "$work/err"; return
  fi
  ok
}

m="$work/reverse.safetensors"
# 300 steps of reverse reach well above chance: the held-out exact match is printed and > 20%.
check "train reverse" 0 -- "$cli" train --task reverse --steps "$learn_steps" --eval-every $((learn_steps / 2)) \
  --eval-size 100 --seed 3 --out "$m"
grep -q "held-out @ step $learn_steps: exact match" "$work/out" && ok || bad "train printed no held-out score"
exact=$(sed -n "s/.*step $learn_steps: exact match \([0-9.]*\)%.*/\1/p" "$work/out")
if [ "$sanitized" = 0 ]; then
  awk -v e="$exact" 'BEGIN { exit !(e > 20) }' && ok || bad "300 steps of reverse reached only ${exact}% exact match"
fi
grep -q "step $learn_steps/$learn_steps" "$work/err" && ok || bad "no progress line on stderr"

check "eval" 0 -- "$cli" eval "$m" --limit 100
grep -q "task reverse (seed 3)" "$work/out" && ok || bad "eval did not take the task and seed from the model"
grep -qE "^exact match +[0-9.]+%" "$work/out" && ok || bad "eval printed no exact match"
grep -qE "^token accuracy +[0-9.]+%" "$work/out" && ok || bad "eval printed no token accuracy"
check "eval beam" 0 -- "$cli" eval "$m" --limit 20 --beam 4
grep -q "beam 4 decoding" "$work/out" && ok || bad "eval --beam 4 did not use beam search"

# Ctrl-C: stops after the current step, saves, exits 130.
"$cli" train --task copy --steps 100000 --eval-every 100000 --out "$work/int.safetensors" > "$work/out" 2> "$work/err" &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
code=$?
[ "$code" -eq 130 ] && ok || bad "SIGINT: exit $code, wanted 130"
grep -q "interrupted at step" "$work/out" && ok || bad "SIGINT: no 'interrupted' line"
"$cli" info "$work/int.safetensors" > /dev/null 2>&1 && ok || bad "SIGINT: the saved model does not load"

# SIGKILL at a random moment after the first checkpoint: the file on disk is a whole checkpoint.
for attempt in 1 2 3; do
  k="$work/kill$attempt.safetensors"
  "$cli" train --task sort --steps 100000 --eval-every 5 --eval-size 10 --out "$k" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do [ -e "$k" ] && break; sleep 0.1; done
  sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
  kill -KILL "$pid"
  wait "$pid" 2> /dev/null
  "$cli" info "$k" > /dev/null 2>&1 && ok || bad "SIGKILL attempt $attempt: the last checkpoint does not load"
done

# An opened model trains on a file's ids and text: one log line a step, the loss before the update, and the saved
# file reopens. The paper-shaped fixture of the training oracle is a decoder-only model file.
fixtures="$(cd "$(dirname "$0")/../golden/fixtures/train20" && pwd)"
paper="$fixtures/paper/model.safetensors"
check "train --init ids" 0 -- "$cli" train --init "$paper" --data-ids "$fixtures/paper/ids.txt" --seq-len 8 --batch 4 \
  --steps 12 --optimizer sgd --lr 0.2 --schedule constant --log "$work/log.jsonl" --out "$work/tuned.safetensors"
[ "$(wc -l < "$work/log.jsonl")" -eq 12 ] && ok || bad "--log wrote $(wc -l < "$work/log.jsonl") lines for 12 steps"
head -n 1 "$work/log.jsonl" | grep -qE '^\{"step": 1, "loss": [0-9.]+\}$' && ok || bad "--log line 1: $(head -n 1 "$work/log.jsonl")"
"$cli" info "$work/tuned.safetensors" > /dev/null 2>&1 && ok || bad "the trained model does not reopen"
printf '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n' > "$work/few.txt"
check "train --init, too few ids for one window" 1 -- "$cli" train --init "$paper" --data-ids "$fixtures/paper/ids.txt" \
  --seq-len 300 --out "$work/x.safetensors"
printf '3 4 x 5\n' > "$work/bad_ids.txt"
check "train --init, a bad ids file" 1 -- "$cli" train --init "$paper" --data-ids "$work/bad_ids.txt" --seq-len 2 \
  --out "$work/x.safetensors"
grep -q "line 1, column 5" "$work/err" && ok || bad "the bad ids file's error names no place: $(cat "$work/err")"
printf '900 1 2 3\n' > "$work/big_ids.txt"
check "train --init, an id past the vocabulary" 1 -- "$cli" train --init "$paper" --data-ids "$work/big_ids.txt" \
  --seq-len 2 --out "$work/x.safetensors"
check "train --init, a missing model" 1 -- "$cli" train --init "$work/none.safetensors" --data-ids "$work/few.txt" \
  --out "$work/x.safetensors"
check "--init and --task" 2 -- "$cli" train --init "$paper" --task copy --data-ids "$work/few.txt" --out "$work/x.safetensors"
check "--init without data" 2 -- "$cli" train --init "$paper" --out "$work/x.safetensors"
check "--text and --data-ids" 2 -- "$cli" train --init "$paper" --text a --data-ids b --out "$work/x.safetensors"
check "train induction with a history" 0 -- "$cli" train --task induction --steps 20 --batch 8 --lr 3e-3 \
  --schedule constant --history "$work/ind.history.safetensors" --history-every 10 --eval-every 10 \
  --out "$work/ind.safetensors"
grep -q "step 20: loss on the first copy [0-9.]*, on the second copy [0-9.]*" "$work/out" && ok || bad "no copy losses"
[ -s "$work/ind.history.safetensors" ] && ok || bad "--history wrote nothing"
check "--history without the induction task" 2 -- "$cli" train --task copy --history "$work/h.safetensors" \
  --out "$work/x.safetensors"
check "--pairs for a decoder-only model" 1 -- "$cli" train --init "$paper" --pairs "$work/few.txt" \
  --out "$work/x.safetensors"
check "bad optimizer" 2 -- "$cli" train --task copy --optimizer adamw --out "$work/x.safetensors"
check "bad schedule" 2 -- "$cli" train --task copy --schedule cosine --out "$work/x.safetensors"
check "constant without a rate" 2 -- "$cli" train --task copy --schedule constant --out "$work/x.safetensors"
check "bad lr" 2 -- "$cli" train --task copy --lr -1 --out "$work/x.safetensors"
check "unwritable log" 1 -- "$cli" train --task copy --steps 2 --log "$work/no/such/log.jsonl" --out "$work/x.safetensors"

# Bad usage: exit 2. Bad input: exit 1.
check "no --task"      2 -- "$cli" train --out "$work/x.safetensors"
check "unknown task"   2 -- "$cli" train --task juggle --out "$work/x.safetensors"
check "bad steps"      2 -- "$cli" train --task copy --steps 0 --out "$work/x.safetensors"
check "bad dropout"    2 -- "$cli" train --task copy --dropout 1.5 --out "$work/x.safetensors"
check "bad disagreement" 2 -- "$cli" train --task copy --head-disagreement -1 --out "$work/x.safetensors"
check "bad query disagreement" 2 -- "$cli" train --task copy --query-disagreement x --out "$work/x.safetensors"
check "unwritable out" 1 -- "$cli" train --task copy --steps 5 --out "$work/no/such/dir/m.safetensors"
check "eval no task"   2 -- "$cli" eval "$work/int.safetensors" --task nope
check "eval wrong task" 1 -- "$cli" eval "$m" --task en-ko
check "eval missing"   1 -- "$cli" eval "$work/none.safetensors" --task copy
[ ! -e "$work/x.safetensors" ] && ok || bad "a failed train left a file"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
