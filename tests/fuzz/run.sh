#!/usr/bin/env bash
# Build the libFuzzer targets with clang-14 into build-fuzz/ and fuzz each for SECONDS seconds.
# Usage: tests/fuzz/run.sh [SECONDS [TARGET...]]   (default 60 s, every target)
# Each target runs on a copy of its seeds (build-fuzz/corpus/<target>), so tests/fuzz/corpus
# stays small. Crash/leak/timeout inputs land in build-fuzz/artifacts/<target>/.
# Exit status: 0 when every target ran clean, 1 when any crashed, leaked or reported.
set -euo pipefail

SECONDS_PER_TARGET="${1:-60}"
if ! [[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || (( SECONDS_PER_TARGET < 1 )); then
  echo "usage: $0 [SECONDS [TARGET...]]" >&2
  exit 2
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$ROOT/build-fuzz"
TARGETS=(fuzz_safetensors fuzz_config_json fuzz_vocab fuzz_tokenizers fuzz_hf_folder fuzz_sharded_index)
if (( $# > 1 )); then
  for t in "${@:2}"; do
    [[ " ${TARGETS[*]} " == *" $t "* ]] || { echo "unknown target $t (one of: ${TARGETS[*]})" >&2; exit 2; }
  done
  TARGETS=("${@:2}")
fi

# ---- toolchain: clang-14 with libFuzzer's runtime (libclang-rt-14-dev) ----
have_toolchain() {
  command -v clang++-14 >/dev/null 2>&1 &&
    compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null
}
if ! have_toolchain; then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  echo "installing clang-14 and libclang-rt-14-dev" >&2
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y clang-14 libclang-rt-14-dev
fi

# ---- build ----
mkdir -p "$BUILD"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_CXX_COMPILER=clang++-14 -DATTNLAB_FUZZ=ON -DATTNLAB_TESTS=OFF \
      -DATTNLAB_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$BUILD/configure.log" 2>&1 || {
  cat "$BUILD/configure.log" >&2; exit 1; }
cmake --build "$BUILD" --target "${TARGETS[@]}" -j "$(nproc)"

# ---- fuzz ----
failed=0
for t in "${TARGETS[@]}"; do
  corpus="$BUILD/corpus/$t"
  artifacts="$BUILD/artifacts/$t"
  log="$BUILD/$t.log"
  mkdir -p "$corpus" "$artifacts"
  cp -n "$ROOT/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null || true
  rc=0
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$BUILD/tests/fuzz/$t" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  n_corpus=$(find "$corpus" -type f | wc -l)
  if (( rc == 0 )) && ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|FUZZ_CHECK failed' "$log"; then
    printf '%-18s OK     execs=%s cov=%s corpus=%s\n' "$t" "${execs:-?}" "${cov:-?}" "$n_corpus"
  else
    failed=1
    what=$(grep -m1 -Eo 'ERROR: [A-Za-z]+: [^ ]+( [^ ]+)?|runtime error: .*|FUZZ_CHECK failed: .*|deadly signal|timeout' "$log" | head -c 160 || echo "exit $rc")
    crash=$(grep -m1 -o 'Test unit written to .*' "$log" | sed 's/^Test unit written to //' || true)
    printf '%-18s FAILED execs=%s (%s) input=%s log=%s\n' "$t" "${execs:-?}" "$what" "${crash:-none}" "$log"
  fi
done
exit "$failed"
