#!/usr/bin/env bash
# Installs what is missing, builds Release, and runs every test with ctest.
#   ./test.sh             the normal build, in build/
#   ./test.sh --sanitize  everything built with AddressSanitizer + UndefinedBehaviorSanitizer, in build-sanitize/
set -euo pipefail
root="$(cd "$(dirname "$0")" && pwd)"
cmake_args=()
case "${1:-}" in
  "") ;;
  --sanitize)
    export ATTNLAB_BUILD="$root/build-sanitize"
    cmake_args=(-DATTNLAB_SANITIZE=ON -DATTNLAB_BENCH=OFF -DATTNLAB_NATIVE=ON)
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    ;;
  *) echo "usage: ./test.sh [--sanitize]" >&2; exit 2 ;;
esac
source "$root/scripts/setup.sh"
attnlab_install_packages
attnlab_build "${cmake_args[@]}"
cd "$ATTNLAB_BUILD"
ctest --output-on-failure -j"$(nproc)"
