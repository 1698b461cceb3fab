#!/usr/bin/env bash
# Remakes the README's screenshots in docs/screenshots/ from a built attnlab (the same runs as the screenshot
# suite's, tests/gui/screenshot_suite.sh): ./scripts/readme_screenshots.sh [build/attnlab]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
app="${1:-$root/build/attnlab}"
out="$root/docs/screenshots"
mkdir -p "$out"
shot() {  # shot NAME WxH FLAGS...
  local name="$1" size="$2"
  shift 2
  HOME="$(mktemp -d)" xvfb-run -a -s "-screen 0 ${size}x24" "$app" --fresh-settings --size "$size" \
    --screenshot "$out/$name.png" "$@"
  echo "$out/$name.png"
}
shot default-1920x1080 1920x1080 --view attention
shot tour-multi-head-1280x720 1280x720 --classroom --tour 3
shot tour-masks-ko-1024x768 1024x768 --classroom --korean --tour 9
# The page, in headless Chromium (tests/web/probe_page.mjs), when the web build is there.
site="$root/build-web/site"
if [ -f "$site/attnlab.wasm" ]; then
  node "$root/tests/web/probe_page.mjs" "$site" "$out/web-attention-1280x720.png" "?view=attention" 1280x720
  echo "$out/web-attention-1280x720.png"
fi
