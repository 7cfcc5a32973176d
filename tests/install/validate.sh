#!/usr/bin/env bash
# Runs a validator on a file: validate.sh TOOL [ARGS...] FILE. SKIPPED (exit 77) where TOOL is not installed
# (scripts/install-deps.sh installs desktop-file-utils and appstream).
set -u
command -v "$1" >/dev/null || { echo "$1 is not installed: skipped"; exit 77; }
"$@"
