#!/usr/bin/env bash
# Installs what is missing, builds Release, and runs the demo on the default model.
set -euo pipefail
source "$(dirname "$0")/scripts/setup.sh"
attnlab_install_packages
attnlab_build
exec bash "$ATTNLAB_ROOT/scripts/demo.sh" "$ATTNLAB_BUILD/attnlab-cli"
