# The checks every CLI contract script shares; sourced after it sets cli and root. Each check counts into passed or
# failed; the script ends with its own summary line and [ "$failed" -eq 0 ].
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

check() {  # check NAME EXPECTED_CODE -- command...: the exit code, and for a failure one 'attnlab-cli:' line
  local name="$1" want="$2"
  shift 3
  timeout 60 "$@" > "$work/out" 2> "$work/err"
  local code=$?
  local lines
  lines=$(wc -l < "$work/err")
  if [ "$code" -ne "$want" ]; then
    echo "FAIL $name: exit $code, wanted $want"; sed 's/^/  /' "$work/err"; failed=$((failed + 1)); return
  fi
  if [ "$want" -ne 0 ] && { [ "$lines" -ne 1 ] || ! grep -q '^attnlab-cli: ' "$work/err"; }; then
    echo "FAIL $name: wanted one 'attnlab-cli:' line on stderr, got $lines:"; sed 's/^/  /' "$work/err"
    failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

expect_output() {  # expect_output NAME PATTERN: the last command's stdout matches
  if grep -qE "$2" "$work/out"; then passed=$((passed + 1)); else
    echo "FAIL $1: stdout lacks /$2/"; sed 's/^/  /' "$work/out" | head -n 20; failed=$((failed + 1)); fi
}

expect_stderr() {  # expect_stderr NAME PATTERN: the last command's stderr matches
  if grep -qE "$2" "$work/err"; then passed=$((passed + 1)); else
    echo "FAIL $1: stderr lacks /$2/"; sed 's/^/  /' "$work/err"; failed=$((failed + 1)); fi
}
