#!/usr/bin/env bash
# Fresh machine to test results: install what is missing, then
#  1. the libFuzzer harnesses (clang, ASan+UBSan) fuzz each loader and the
#     CLI parser briefly and replay the kept crashers (build-fuzz/);
#  2. the whole suite under ASan+UBSan (build-asan/);
#  3. the release build with warnings as errors and the whole suite (build/).
# Everything runs offscreen (no display needed). Ends with ctest's summary
# line of the release suite. VRAM_QUICK=1 skips steps 1 and 2.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
export QT_QPA_PLATFORM=offscreen

if [ "${VRAM_QUICK:-0}" != 1 ]; then
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz
  ctest --preset fuzz
  cmake --preset asan >/dev/null
  cmake --build --preset asan
  ctest --preset asan
fi

cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci
