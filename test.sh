#!/usr/bin/env bash
# Installs what is missing, builds Release, and runs every test with ctest.
set -euo pipefail
source "$(dirname "$0")/scripts/setup.sh"
attnlab_install_packages
attnlab_build
cd "$ATTNLAB_BUILD"
ctest --output-on-failure -j"$(nproc)"
