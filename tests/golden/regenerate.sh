#!/usr/bin/env bash
# Rewrites tests/golden/expected.jsonl from tests/golden/corpus.txt with the
# release build (build/). Run it only for an intended change of output, and
# say in the commit which records changed and why (git diff --stat, then
# golden_check's list of JSON pointers before regenerating).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --build build --target golden_check >/dev/null
build/tests/golden/golden_check tests/golden/corpus.txt tests/golden/expected.jsonl --update
