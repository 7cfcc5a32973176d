#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (CTest). Real benchmark fixtures are read from
# ../shared/fixtures/real beside the checkout. Then the same suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer (clang, preset asan; the source gates of label gate run once, in the first), and a
# short pass of every libFuzzer target (2 s each; scripts/fuzz.sh for longer runs). PARETOSCOPE_QUICK=1 stops after
# the first suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --hip
scripts/build.sh -DPARETOSCOPE_WERROR=ON
ctest --preset default
if [ "${PARETOSCOPE_QUICK:-0}" = 1 ]; then
    exit 0
fi
cmake --preset asan -DPARETOSCOPE_WERROR=ON >/dev/null
cmake --build --preset asan
ctest --preset asan
scripts/fuzz.sh 2 build-asan
