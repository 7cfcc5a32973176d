#!/usr/bin/env bash
# Installs what is missing, builds, and shows the ladder of the bundled DeepSeek V4.1 Flash dataset (the default
# store is created and seeded on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
./build/app/paretoscope-cli ladder --model DeepSeek-V4.1-Flash --workload "agentic coding" --format table
