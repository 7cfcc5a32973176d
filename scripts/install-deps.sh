#!/usr/bin/env bash
# Installs the Debian 12 packages Paretoscope builds, tests and benchmarks with, skipping those already present.
# Runs apt-get directly as root, through sudo otherwise. With --test it also installs what only the test command needs:
# Debian's HIP compiler (hipcc, HIP 5.2, with LLVM 15: about 300 MB), so that the HIP kernels are built, and
# clang-tidy 22 (about 65 MB) for its check gate, and poppler-utils (pdftotext reads the PDF report back as a reader
# does); the explorer needs none of them. (--hip is the older name of --test.)
set -euo pipefail
packages=(
    g++ cmake ninja-build pkg-config ca-certificates time bc ccache lld
    clang-14 libclang-rt-14-dev clang-format-14
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
    nlohmann-json3-dev libsqlite3-dev libcurl4-openssl-dev libssl-dev libsimdjson-dev
    libcpp-httplib-dev libbenchmark-dev zlib1g-dev
    libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
    fonts-dejavu-core xvfb xauth
    python3 python3-pandas
    desktop-file-utils appstream groff-base dpkg-dev
    slurm-wlm munge
)
if [ "${1:-}" = --test ] || [ "${1:-}" = --hip ]; then
    packages+=(hipcc libamdhip64-dev clang-tidy-22 poppler-utils)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "Installing: ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
