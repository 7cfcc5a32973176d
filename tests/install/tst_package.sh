#!/usr/bin/env bash
# The Debian package: built by cpack (into a folder of its own), unpacked into a temporary root with dpkg-deb, and
# run from there: the installed CLI's ladder on the bundled dataset equals the build tree's, the installed explorer
# renders a screenshot, the examples are found in share/paretoscope, and the desktop files, icons, man pages and
# completion are where a desktop looks. As root, `dpkg --dry-run -i` also checks that its dependencies are met here.
# Nothing is installed on the machine; the temporary folder goes at the end. SKIPPED (77) without cpack or dpkg, and
# in the sanitizer build (PARETOSCOPE_SANITIZED).
# Usage: tst_package.sh BUILD_DIR BUILD_CLI VERSION APP_ID
set -euo pipefail
build=$1 buildcli=$2 version=$3 appid=$4
if [ -n "${PARETOSCOPE_SANITIZED:-}" ]; then
    echo "a sanitizer build is not what is packaged: skipped"
    exit 77
fi
for tool in cpack dpkg dpkg-deb dpkg-shlibdeps python3; do
    command -v $tool >/dev/null || { echo "$tool is not installed: skipped"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
arch=$(dpkg --print-architecture)

start=$(date +%s)
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack"; }
deb=$tmp/pkg/paretoscope_${version}_$arch.deb
probedeb=$tmp/pkg/paretoscope-probe_${version}_$arch.deb
[ -f "$deb" ] && [ -f "$probedeb" ] || { ls "$tmp/pkg"; fail "cpack did not write both packages"; }
echo "packages in $(($(date +%s) - start)) s: $(du -k "$deb" | cut -f1) KiB and $(du -k "$probedeb" | cut -f1) KiB"

# dependencies computed, on Qt, SQLite and the C++ runtime; none on the GPU toolkits, which only the probe links
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 libsqlite3-0 libstdc++6 libcurl4; do
    grep -q "$lib" <<<"$depends" || fail "the package does not depend on $lib"
done
grep -qiE "cuda|cublas|amdhip|rocm" <<<"$depends" && fail "the package depends on a GPU toolkit"
if [ "$(id -u)" -eq 0 ]; then
    if ! dpkg --dry-run -i "$deb" >"$tmp/dryrun.log" 2>&1; then
        # another dpkg or apt at work holds the lock: that says nothing of the package
        grep -qi "lock" "$tmp/dryrun.log" && echo "dpkg is busy: its dry run was not done" \
            || { cat "$tmp/dryrun.log"; fail "dpkg -i would fail here"; }
    fi
fi

root=$tmp/root
dpkg-deb -x "$deb" "$root"
dpkg-deb -x "$probedeb" "$root"
share=$root/usr/share
for f in bin/paretoscope bin/paretoscope-cli bin/paretoscope-engine-sim bin/paretoscope-probe \
    share/applications/$appid.desktop share/metainfo/$appid.metainfo.xml \
    share/icons/hicolor/scalable/apps/paretoscope.svg share/bash-completion/completions/paretoscope-cli \
    share/man/man1/paretoscope.1 share/man/man1/paretoscope-cli.1 share/man/man1/paretoscope-engine-sim.1 \
    share/man/man1/paretoscope-probe.1 share/paretoscope/matrices/sim-example.json share/paretoscope/tco_default.json \
    share/doc/paretoscope/copyright share/doc/paretoscope-probe/copyright; do
    [ -s "$root/usr/$f" ] || fail "the packages lack /usr/$f"
done
grep -q '<project_license>Apache-2.0</project_license>' "$share/metainfo/$appid.metainfo.xml" \
    || fail "the metainfo does not name the licence"
cmp -s "$share/doc/paretoscope/copyright" "$(dirname "$0")/../../LICENSE" || fail "the package's copyright is not LICENSE"
for size in 16 32 48 64 128 256; do
    png=$share/icons/hicolor/${size}x${size}/apps/paretoscope.png
    [ "$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]) if d[:8]==b"\x89PNG\r\n\x1a\n" else "-")' "$png")" = "${size}x$size" ] \
        || fail "$png is not a ${size}x$size PNG"
done
for exe in "$root"/usr/bin/*; do
    ! ldd "$exe" | grep -q "not found" || fail "$exe: $(ldd "$exe" | grep "not found")"
done

cli=$root/usr/bin/paretoscope-cli
[ "$("$cli" --version)" = "paretoscope-cli $version (licence Apache-2.0)" ] || fail "the installed CLI's --version"
# the ladder of the bundled dataset, each CLI with a fresh default store (seeded on first use)
XDG_DATA_HOME=$tmp/xdg-build "$buildcli" scopes --format json >"$tmp/scopes.json"
IFS=$'\t' read -r model workload < <(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))[0]; print(s["model"] + "\t" + s["workload"])' "$tmp/scopes.json")
scope=(--model "$model" --workload "$workload")
for format in json table; do
    XDG_DATA_HOME=$tmp/xdg-build "$buildcli" ladder "${scope[@]}" --format $format >"$tmp/build-ladder.$format"
    XDG_DATA_HOME=$tmp/xdg-installed "$cli" ladder "${scope[@]}" --format $format >"$tmp/installed-ladder.$format"
    [ -s "$tmp/build-ladder.$format" ] || fail "the build tree's ladder is empty"
    diff "$tmp/build-ladder.$format" "$tmp/installed-ladder.$format" || fail "the installed ladder ($format) differs"
done
# an example by its name, from anywhere: share/paretoscope beside the installed bin/
plan=(plan "${scope[@]}" --demand 1000000 --unit tok/s --target 50 --format json)
XDG_DATA_HOME=$tmp/xdg-installed "$cli" "${plan[@]}" --tco default >"$tmp/plan-default.json"
(cd / && XDG_DATA_HOME=$tmp/xdg-installed "$cli" "${plan[@]}" --tco tco_default.json >"$tmp/plan-file.json") \
    || fail "the installed CLI does not find tco_default.json"
diff "$tmp/plan-default.json" "$tmp/plan-file.json" || fail "the installed tco_default.json differs from the bundled TCO"

env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM=offscreen XDG_DATA_HOME=$tmp/xdg-installed \
    "$root/usr/bin/paretoscope" --screenshot "$tmp/shot.png" --size 1600x1000 || fail "the installed explorer's screenshot"
[ "$(python3 -c 'import struct,sys; print("%dx%d" % struct.unpack(">II", open(sys.argv[1],"rb").read(24)[16:24]))' "$tmp/shot.png")" = 1600x1000 ] \
    || fail "the screenshot is not 1600x1000"
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$root/usr/bin/paretoscope" --version | grep -qx "Paretoscope $version (licence Apache-2.0)" \
    || fail "the installed explorer's --version"
echo "package: ok in $(($(date +%s) - start)) s (ladder of $model, $workload)"
