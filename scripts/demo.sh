#!/usr/bin/env bash
# Runs the demo, the README's main job: `swift run cart demo` (a sample catalog in a SQLite
# file, and what to try next), after installing the Debian packages the build needs when they
# are missing (as root; see scripts/lib/packages.sh). Arguments go to `cart demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh
ensure_packages "${build_packages[@]}"
exec swift run cart demo "$@"
