#!/usr/bin/env bash
# Builds the web page into build-web/site/ (index.html, attnlab.js, attnlab.wasm, attnlab.data), with Debian's
# emscripten, and the WebAssembly test binaries beside it. Serve the folder with any static server, e.g.
#   python3 -m http.server -d build-web/site 8000     and open http://localhost:8000
# ./scripts/web/build.sh --test also runs the tests: the core's and app model's Catch2 tests under node, then the
# browser tests in headless Chromium: tests/web/browser_test.mjs (the views and every tour chapter) and
# tests/web/page_features.mjs (opening a model, saving, the settings, training).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
attnlab_web_install
attnlab_web_sources

mkdir -p "$ATTNLAB_WEB_BUILD"
emcmake cmake -S "$ATTNLAB_ROOT" -B "$ATTNLAB_WEB_BUILD" -DCMAKE_BUILD_TYPE=Release -DATTNLAB_NATIVE=OFF \
  -DATTNLAB_BENCH=OFF -DATTNLAB_WEB_DEPS="$ATTNLAB_WEB_DEPS" > "$ATTNLAB_WEB_BUILD/configure.log" 2>&1 ||
  { cat "$ATTNLAB_WEB_BUILD/configure.log"; exit 1; }
cmake --build "$ATTNLAB_WEB_BUILD" -j"$(nproc)"
echo "== the page is in $ATTNLAB_WEB_BUILD/site"

if [ "${1:-}" = "--test" ]; then
  (cd "$ATTNLAB_WEB_BUILD" && ctest --output-on-failure)
  node "$ATTNLAB_ROOT/tests/web/browser_test.mjs" "$ATTNLAB_WEB_BUILD/site" "$ATTNLAB_WEB_BUILD/browser"
  node "$ATTNLAB_ROOT/tests/web/page_features.mjs" "$ATTNLAB_WEB_BUILD/site" "$ATTNLAB_WEB_BUILD/features"
fi
