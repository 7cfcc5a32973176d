#!/usr/bin/env bash
# The documentation's pictures: the explorer on the bundled dataset (a fresh default store, seeded on first start),
# one per tab a user opens, at 1600x1000 and 1366x768, into docs/screenshots/TAB-WxH.png, and docs/screenshot.png.
# The test "screenshots" fails when a tab the explorer lists has none. Usage: scripts/screenshots.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
app=$build/app/paretoscope
[ -x "$app" ] || { echo "no explorer at $app: build it first (scripts/build.sh)" >&2; exit 1; }
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p docs/screenshots
# the tab names as the explorer itself lists them (its refusal of a tab it does not know)
tabs=$(QT_QPA_PLATFORM=offscreen "$app" --screenshot /dev/null --tab '?' 2>&1 >/dev/null \
    | sed -n 's/.*--tab must be one of \(.*\)$/\1/p' | sed 's/,//g' || true)
[ -n "$tabs" ] || { echo "could not read the tab names from $app" >&2; exit 1; }
for size in 1600x1000 1366x768; do
    for tab in $tabs; do
        # settings and the default store of their own, per size: the pictures show what a new user sees on that
        # screen (a layout kept from the larger size would fold the sidebar otherwise)
        mkdir -p "$home/$size"
        HOME=$home/$size XDG_CONFIG_HOME=$home/$size/.config XDG_DATA_HOME=$home/$size/.local/share QT_QPA_PLATFORM=offscreen \
            "$app" --screenshot "docs/screenshots/$tab-$size.png" --size "$size" --tab "$tab" 2>/dev/null
        echo "docs/screenshots/$tab-$size.png"
    done
done
# the README's picture and the one the AppStream metadata links: the first tab at the larger size
cp docs/screenshots/ladder-1600x1000.png docs/screenshot.png
echo docs/screenshot.png
