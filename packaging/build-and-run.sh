#!/usr/bin/env bash
# Fresh machine to running app: install what is missing, build Release into
# build/, start the GUI (extra arguments go to the app).
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/bin/vramplanner "$@"
