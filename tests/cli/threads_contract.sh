#!/usr/bin/env bash
# attnlab-cli --threads N, read once for every command: a trace on 1 thread and on 2 is the same file, byte for
# byte (the bundled model's, and a paper-base model's on 64 tokens, whose FFN products are split between the
# threads: with Eigen's sgemm each half took its own blocking and the sums differed in the last bits); bench
# reports the count it ran on; a count that is not a whole number from 1 is a usage error.
set -uo pipefail
cli="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

same_trace() {  # same_trace NAME MODEL ARGS...: the trace on --threads 1 and on --threads 2 are identical files
  local name="$1" model="$2"
  shift 2
  for n in 1 2; do
    "$cli" trace "$model" "$@" --threads "$n" --out "$work/$name-$n.safetensors" > /dev/null 2> "$work/err" ||
      { fail "$name: trace --threads $n exited $?"; sed 's/^/  /' "$work/err"; return; }
  done
  cmp -s "$work/$name-1.safetensors" "$work/$name-2.safetensors" || fail "$name: --threads 1 and 2 traces differ"
}

same_trace bundled "$root/assets/models/en-ko.safetensors" --src "i like red apples" --tgt "나 는 빨간 사과 를 좋아해"
"$cli" init --preset base --seed 3 --out "$work/base.safetensors" > /dev/null || fail "init --preset base"
ids=$(seq -s, 4 67)  # 64 tokens: the FFN's 64·512·2048 multiply-adds are split between the threads
same_trace base "$work/base.safetensors" --src-ids "$ids" --tgt-ids "1,$(seq -s, 4 66)"

for n in 1 2; do  # bench's JSON says how many threads the pass ran on
  "$cli" bench --preset tiny --reps 1 --threads "$n" --json > "$work/bench" 2> "$work/err" || fail "bench --threads $n"
  grep -q "\"threads\": $n," "$work/bench" || { fail "bench --threads $n reports:"; cat "$work/bench"; }
  grep -qE '"peak_rss_mb": [1-9][0-9]*\.[0-9]' "$work/bench" || { fail "bench has no peak_rss_mb:"; cat "$work/bench"; }
done

for bad in 0 x -1 1.5 ""; do  # exit 2 with one line that names the flag
  "$cli" trace "$root/assets/models/en-ko.safetensors" --src "i" --threads "$bad" --out "$work/bad.safetensors" \
    > /dev/null 2> "$work/err"
  code=$?
  if [ "$code" -ne 2 ] || [ "$(wc -l < "$work/err")" -ne 1 ] || ! grep -q '^attnlab-cli: .*--threads' "$work/err"; then
    fail "--threads '$bad': exit $code, wanted 2 and one line naming --threads:"; sed 's/^/  /' "$work/err"
  fi
  [ -e "$work/bad.safetensors" ] && fail "--threads '$bad' wrote a trace"
done
"$cli" bench --preset tiny --threads > /dev/null 2> "$work/err"
[ $? -eq 2 ] || fail "--threads without a value should exit 2"

if [ "$failed" -ne 0 ]; then echo "$failed failure(s)"; exit 1; fi
echo "threads contract: passed"
