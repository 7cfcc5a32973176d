#!/usr/bin/env bash
# Installs what is missing, builds, and opens the explorer on the bundled DeepSeek V4.1 Flash dataset (the default
# store is created and seeded on first start). Without a display it writes a screenshot instead and says where.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# only what this command runs: the explorer, the CLI it calls for exports and commands, and the engine emulator of
# simulated live sessions (the tests and benchmarks are the test command's)
cmake --preset default >/dev/null
cmake --build --preset default --target paretoscope paretoscope-cli paretoscope-engine-sim
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): rendering the explorer to paretoscope.png instead."
    QT_QPA_PLATFORM=offscreen ./build/app/paretoscope --screenshot paretoscope.png --size 1600x1000 "$@"
    echo "Wrote $(pwd)/paretoscope.png"
    exit 0
fi
exec ./build/app/paretoscope "$@"
