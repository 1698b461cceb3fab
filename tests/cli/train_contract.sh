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
