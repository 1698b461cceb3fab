#!/usr/bin/env bash
# Build every libFuzzer target (tests/fuzz/fuzz_*.cpp) with clang-14 into build-fuzz/ and fuzz each for SECONDS seconds.
# Usage: tests/fuzz/run.sh [SECONDS [TARGET...]]   (default 60 s, every target)
# The targets link the real attnlab_core and attnlab_app_model, built instrumented in build-fuzz/ (CMakeLists.txt
# there). Each target runs on a copy of its seeds (build-fuzz/corpus/<target>), so tests/fuzz/corpus stays small.
# Crash/leak/timeout/out-of-memory inputs land in build-fuzz/artifacts/<target>/.
# ATTNLAB_BUILD_LOCK=FILE: hold flock FILE around the build step (a machine shared with other builds).
# Exit status: 0 when every target ran clean, 1 when any crashed, leaked, hung or ran out of memory.
set -euo pipefail

SECONDS_PER_TARGET="${1:-60}"
if ! [[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || (( SECONDS_PER_TARGET < 1 )); then
  echo "usage: $0 [SECONDS [TARGET...]]" >&2
  exit 2
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$ROOT/build-fuzz"
TARGETS=()
for source in "$ROOT"/tests/fuzz/fuzz_*.cpp; do
  TARGETS+=("$(basename "$source" .cpp)")
done
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
# -O1 and line tables only: AddressSanitizer's advice, and quicker to build than RelWithDebInfo's -O2 -g.
mkdir -p "$BUILD"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_CXX_COMPILER=clang++-14 -DATTNLAB_FUZZ=ON -DATTNLAB_TESTS=OFF \
      -DATTNLAB_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log" >&2; exit 1; }
if [[ -n "${ATTNLAB_BUILD_LOCK:-}" ]]; then
  exec 9>"$ATTNLAB_BUILD_LOCK"
  flock 9
fi
build_start=$(date +%s)
cmake --build "$BUILD" --target "${TARGETS[@]}" -j "$(nproc)"
echo "built ${#TARGETS[@]} fuzz targets in $(($(date +%s) - build_start)) s"
if [[ -n "${ATTNLAB_BUILD_LOCK:-}" ]]; then exec 9>&-; fi

# ---- fuzz ----
fuzz_start=$(date +%s)
failed=0
for t in "${TARGETS[@]}"; do
  corpus="$BUILD/corpus/$t"
  artifacts="$BUILD/artifacts/$t"
  log="$BUILD/$t.log"
  mkdir -p "$corpus" "$artifacts"
  cp -n "$ROOT/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null || true
  rc=0
  # One input may take 30 s (an ASan build on a busy 2-core machine is many times slower than a release one) and
  # 2 GB, one allocation 2 GB too; 64 KB holds every seed. A hang past the whole run's time is a failure too.
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    timeout --kill-after=10 $((SECONDS_PER_TARGET + 120)) \
    "$BUILD/tests/fuzz/$t" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=30 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  n_corpus=$(find "$corpus" -type f | wc -l)
  if (( rc == 0 )) && ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|FUZZ_CHECK failed' "$log"; then
    printf '%-20s OK     execs=%s cov=%s corpus=%s\n' "$t" "${execs:-?}" "${cov:-?}" "$n_corpus"
  else
    failed=1
    what=$(grep -m1 -Eo 'ERROR: [A-Za-z]+: [^ ]+( [^ ]+)?|runtime error: .*|FUZZ_CHECK failed: .*|deadly signal|out-of-memory|timeout' "$log" | head -c 160 || echo "exit $rc")
    crash=$(grep -m1 -o 'Test unit written to .*' "$log" | sed 's/^Test unit written to //' || true)
    printf '%-20s FAILED execs=%s (%s) input=%s log=%s\n' "$t" "${execs:-?}" "$what" "${crash:-none}" "$log"
  fi
done
echo "fuzzed ${#TARGETS[@]} targets for $SECONDS_PER_TARGET s each in $(($(date +%s) - fuzz_start)) s"
exit "$failed"
