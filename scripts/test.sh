#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (CTest). Real benchmark fixtures are read from
# ../shared/fixtures/real beside the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --preset default
