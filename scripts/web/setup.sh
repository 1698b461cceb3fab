#!/usr/bin/env bash
# Source it: what the web build needs, from Debian only.
#   Packages: emscripten (3.1.6, clang 14), the desktop build's header packages, fonts, and for the tests chromium
#   (headless, SwiftShader's WebGL2) and node (already on the machine; Debian's nodejs otherwise).
#   Sources: Dear ImGui 1.86 and SentencePiece 0.1.97, the versions the desktop build links, from Debian's source
#   packages (apt-get source, with a deb-src entry for the same archive as the machine's deb entries), unpacked
#   into $ATTNLAB_WEB_DEPS.
# Sets ATTNLAB_WEB_BUILD (build-web/) and ATTNLAB_WEB_DEPS (build-web/deps/).
set -euo pipefail

ATTNLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ATTNLAB_WEB_BUILD="${ATTNLAB_WEB_BUILD:-$ATTNLAB_ROOT/build-web}"
ATTNLAB_WEB_DEPS="$ATTNLAB_WEB_BUILD/deps"
# Emscripten's optimizer needs Debian's acorn, which a node from elsewhere (NodeSource's) does not look for.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

ATTNLAB_WEB_PACKAGES=(
  emscripten nodejs cmake dpkg-dev
  libeigen3-dev nlohmann-json3-dev libstb-dev catch2 fonts-nanum fonts-dejavu-core
  chromium
)

attnlab_web_sudo() { if [ "$(id -u)" -ne 0 ]; then sudo "$@"; else "$@"; fi; }

# A deb-src line for every deb source of the machine's Debian archive (deb822 or one-line form).
attnlab_web_add_deb_src() {
  local list=/etc/apt/sources.list.d/attnlab-deb-src.sources
  if apt-get indextargets --format '$(IDENTIFIER)' 2>/dev/null | grep -qx Sources; then return 0; fi
  [ -f "$list" ] && return 0
  echo "== adding deb-src entries for Debian's archive ($list)"
  local sources
  sources="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null; echo)"
  printf '%s\n' "$sources" | awk '
    /^Types:/ { if ($0 ~ /deb( |$)/) keep = 1; next }
    /^URIs:/ { uri = $2 } /^Suites:/ { sub(/^Suites: */, ""); suites = $0 } /^Components:/ { sub(/^Components: */, ""); comps = $0 }
    /^Signed-By:/ { signed = $2 }
    /^$/ { if (keep && uri ~ /debian/) printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\nSigned-By: %s\n\n", uri, suites, comps, signed;
           keep = 0; uri = suites = comps = signed = "" }' | attnlab_web_sudo tee "$list" > /dev/null
  if [ ! -s "$list" ] && [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb \(.*debian.*\)/deb-src \1/p' /etc/apt/sources.list | attnlab_web_sudo tee "$list.list" > /dev/null
    attnlab_web_sudo rm -f "$list"
  fi
  attnlab_web_sudo apt-get update -qq
}

attnlab_web_install() {
  local missing=()
  for p in "${ATTNLAB_WEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # NodeSource's node may stand in for Debian's nodejs; emscripten then needs only node-acorn.
  if command -v node > /dev/null; then
    local kept=()
    for p in "${missing[@]}"; do [ "$p" != nodejs ] && kept+=("$p"); done
    missing=("${kept[@]}")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing: ${missing[*]}"
    attnlab_web_sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive attnlab_web_sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  if [ ! -d /usr/share/nodejs/acorn ]; then
    DEBIAN_FRONTEND=noninteractive attnlab_web_sudo apt-get install -y -qq --no-install-recommends node-acorn
  fi
}

attnlab_web_sources() {
  mkdir -p "$ATTNLAB_WEB_DEPS"
  if compgen -G "$ATTNLAB_WEB_DEPS/imgui-1.86*/imgui.cpp" > /dev/null &&
     compgen -G "$ATTNLAB_WEB_DEPS/sentencepiece-0.1.97*/src/sentencepiece_processor.cc" > /dev/null; then
    return 0
  fi
  attnlab_web_add_deb_src
  echo "== Debian's source packages: imgui, sentencepiece (into $ATTNLAB_WEB_DEPS)"
  (cd "$ATTNLAB_WEB_DEPS" && apt-get source -qq imgui sentencepiece > apt-source.log 2>&1) ||
    { cat "$ATTNLAB_WEB_DEPS/apt-source.log"; return 1; }
}
