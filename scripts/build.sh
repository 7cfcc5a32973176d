#!/usr/bin/env bash
# Configures (preset "default", build/) and builds everything. Arguments go to the configure step
# (scripts/test.sh passes -DPARETOSCOPE_WERROR=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset default "$@" >/dev/null
cmake --build --preset default
