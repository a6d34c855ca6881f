#!/usr/bin/env bash
# Fresh machine to test results: install what is missing, build with
# warnings as errors into build/, run every test offscreen (no display
# needed). Ends with ctest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
export QT_QPA_PLATFORM=offscreen
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci
