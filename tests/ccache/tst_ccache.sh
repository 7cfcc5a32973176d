#!/usr/bin/env bash
# The compiler cache as the project sets it up (cmake/compilercache.cmake), with each compiler given, as the presets use
# them: COMPILER builds a precompiled header (GCC, the release preset), COMPILER:nopch includes the header plainly
# (clang, the asan preset: clang's precompiled headers hold the absolute paths of their clone, so they and every
# object that reads one could never be shared with another clone).
#   1. a clone in another folder, with fresh file times, is served from the cache: every compile a hit, the
#      precompiled header's included;
#   2. a header changed in place, same size and same time as the cached one, is never a hit: a fresh build prints the
#      new value, through the (precompiled) header and through the plain source.
# Usage: tst_ccache.sh PROJECT_ROOT COMPILER[:nopch]... ; exits 77 (skipped) where ccache is not installed.
set -euo pipefail
root=$1
shift
command -v ccache >/dev/null || { echo "SKIP: ccache is not installed (scripts/install-deps.sh installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CCACHE_DIR=$work/cache CCACHE_TEMPDIR=$work/cache-tmp
unset CCACHE_DISABLE CCACHE_RECACHE CCACHE_READONLY CCACHE_NODIRECT CCACHE_BASEDIR CCACHE_NOHASHDIR CCACHE_SLOPPINESS

stat_of() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
hits() { echo $(($(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit))); }
misses() { stat_of cache_miss; }
fail() {
    echo "FAIL ($compiler): $*" >&2
    exit 1
}
build() { # folder: configures and builds the probe there, prints what it prints
    cmake -S "$1" -B "$1/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1" \
          "-DCMAKE_CXX_COMPILER=$compiler" "-DPROBE_PCH=$pch" "-DPARETOSCOPE_ROOT=$root" >"$1/configure.log" 2>&1 ||
        { cat "$1/configure.log"; fail "configure in $1"; }
    cmake --build "$1/build" >"$1/build.log" 2>&1 || { cat "$1/build.log"; fail "build in $1"; }
    "$1/build/probe"
}

for spec in "$@"; do
    compiler=${spec%:nopch}
    pch=ON
    [ "$spec" = "$compiler" ] || pch=OFF
    command -v "$compiler" >/dev/null || fail "no compiler $compiler"
    ccache --clear >/dev/null
    ccache --zero-stats >/dev/null
    rm -rf "$work/first" "$work/clone" "$work/changed"
    mkdir -p "$work/first"
    cp -r "$(dirname "$0")"/{CMakeLists.txt,main.cpp,twice.cpp,include} "$work/first/"

    [ "$(build "$work/first")" = "1 2" ] || fail "the first build does not print 1 2"
    compiled=$(misses)
    expected=2
    [ "$pch" = OFF ] || expected=3
    [ "$compiled" = "$expected" ] || fail "$compiled compiles went through ccache, not $expected (each source, the header)"
    [ "$(hits)" = 0 ] || fail "hits in an empty cache"

    # another folder, as CI's clone: the files written anew (new times), the same content
    mkdir -p "$work/clone"
    cp -r "$work/first"/{CMakeLists.txt,main.cpp,twice.cpp,include} "$work/clone/"
    [ "$(build "$work/clone")" = "1 2" ] || fail "the clone does not print 1 2"
    [ "$(misses)" = "$compiled" ] || fail "the clone missed $(($(misses) - compiled)) of $compiled compiles"
    [ "$(hits)" = "$compiled" ] || fail "the clone hit $(hits) of $compiled compiles"

    # the header changed, same size, its time set back to the cached one's: a new value, never the cached objects
    mkdir -p "$work/changed"
    cp -rp "$work/first"/{CMakeLists.txt,main.cpp,twice.cpp,include} "$work/changed/"
    sed -i 's/PROBE_VALUE 1/PROBE_VALUE 7/' "$work/changed/include/value.h"
    touch -r "$work/first/include/value.h" "$work/changed/include/value.h"
    [ "$(stat -c %s "$work/changed/include/value.h")" = "$(stat -c %s "$work/first/include/value.h")" ] || fail "sizes differ"
    printed=$(build "$work/changed")
    [ "$printed" = "7 14" ] || fail "a header changed at the same size and time printed '$printed', not '7 14'"
    [ "$(misses)" = $((2 * compiled)) ] || fail "the changed header gave $(($(misses) - compiled)) misses, not $compiled"
    echo "$compiler: a clone in another folder hit $compiled of $compiled compiles; a changed header missed all"
done
