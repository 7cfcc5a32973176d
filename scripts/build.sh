#!/usr/bin/env bash
# Configures (preset "default", build/) and builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default
