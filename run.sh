#!/usr/bin/env bash
# Installs what is missing, builds Release, and opens Attention Lab on its default model.
# Without a display it says so and writes a screenshot of the default views instead.
set -euo pipefail
source "$(dirname "$0")/scripts/setup.sh"
attnlab_install_packages
attnlab_build
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  shot="$ATTNLAB_BUILD/attnlab-default.png"
  echo "No display found (DISPLAY is not set), so instead of a window here is a screenshot of the default views:"
  xvfb-run -a -s "-screen 0 1600x900x24" "$ATTNLAB_BUILD/attnlab" --fresh-settings --screenshot "$shot"
  echo "  $shot"
  echo "The command-line tool works without a display: $ATTNLAB_BUILD/attnlab-cli --help"
  exit 0
fi
exec "$ATTNLAB_BUILD/attnlab" "$@"
