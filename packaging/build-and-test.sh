#!/usr/bin/env bash
# Fresh machine to test results: install what is missing, then
#  1. one clang build with ASan+UBSan (build-sanitize/): the libFuzzer
#     harnesses fuzz each loader and the CLI parser briefly and replay the
#     kept crashers, and the whole suite runs under the sanitizers;
#  2. the release build with warnings as errors and the whole suite (build/).
# Everything runs offscreen (no display needed). Ends with ctest's summary
# line of the release suite. VRAM_QUICK=1 skips step 1.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
export QT_QPA_PLATFORM=offscreen

if [ "${VRAM_QUICK:-0}" != 1 ]; then
  cmake --preset sanitize >/dev/null
  cmake --build --preset sanitize
  ctest --preset sanitize
fi

cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci
