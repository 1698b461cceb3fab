#!/usr/bin/env bash
# Shared by run.sh and test.sh: install the missing Debian packages, then configure and
# build Release into build/. Source it; it sets ATTNLAB_BUILD to the build directory.
set -euo pipefail

ATTNLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ATTNLAB_BUILD="${ATTNLAB_BUILD:-$ATTNLAB_ROOT/build}"

ATTNLAB_PACKAGES=(
  build-essential cmake pkg-config
  libeigen3-dev nlohmann-json3-dev libsentencepiece-dev catch2 libbenchmark-dev
  libimgui-dev libglfw3-dev libstb-dev
  xvfb xauth fonts-nanum fonts-dejavu-core
)

attnlab_install_packages() {
  local missing=()
  for p in "${ATTNLAB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "== installing: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# attnlab_build [CMAKE_ARGS...]: configure and build into $ATTNLAB_BUILD.
attnlab_build() {
  local extra=("$@")
  mkdir -p "$ATTNLAB_BUILD"
  cmake -S "$ATTNLAB_ROOT" -B "$ATTNLAB_BUILD" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" > "$ATTNLAB_BUILD/configure.log" 2>&1 \
    || { cat "$ATTNLAB_BUILD/configure.log"; return 1; }
  cmake --build "$ATTNLAB_BUILD" -j"$(nproc)"
}
