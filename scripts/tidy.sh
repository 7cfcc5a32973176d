#!/usr/bin/env bash
# Runs clang-tidy (the checks of .clang-tidy) on the core library's sources, or on the sources whose path matches the
# regular expressions given, e.g. scripts/tidy.sh core/analysis widgets/. Needs a configured build folder with
# compile_commands.json (BUILD, default build/; scripts/build.sh makes one) and clang-tidy 14. Not part of the tests:
# on two cores the whole of core/ takes several minutes. Exits non-zero when clang-tidy reports a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
runner=$(command -v run-clang-tidy-14 || command -v run-clang-tidy || true)
if [ -z "$tidy" ] || [ -z "$runner" ]; then
    echo "tidy.sh: clang-tidy and run-clang-tidy are needed (Debian: apt-get install clang-tidy-14)" >&2
    exit 2
fi
if [ ! -f "$build/compile_commands.json" ]; then
    cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
if [ $# -eq 0 ]; then
    set -- "$PWD/core/"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# run-clang-tidy exits 0 whatever it finds, and always asks for colour: the findings are counted in its output with
# the colour codes taken out
"$runner" -clang-tidy-binary "$tidy" -p "$build" -j "$(nproc)" -quiet "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' \
    | tee "$out" | grep -v "^$tidy \|^[0-9]* warnings* generated\|^Suppressed [0-9]* warnings\|^Use -header-filter" || true
findings=$(grep -c ': warning: \|: error: ' "$out" || true)
echo "tidy.sh: $findings finding(s)"
[ "$findings" -eq 0 ]
