#!/bin/bash
# Where a slider step's time goes: bench_explorer's drags with PARETOSCOPE_BENCH_STEPS and _PAINTS, averaged over the
# steps that moved the target (the first step of each drag, a jump across the whole range, left out): the wall time's
# median and p90, the GUI thread's CPU time in the value's handlers and in painting, and the paint time per widget.
# A figure, not a pass/fail test.
#   tests/bench/paint_breakdown.sh [BUILD_DIR] [DRAGS] [STORE_DIR]
set -euo pipefail
build=${1:-build}
drags=${2:-3}
keep=${3:-/tmp/paretoscope-bench}
QT_QPA_PLATFORM=offscreen PARETOSCOPE_BENCH_PAINTS=1 PARETOSCOPE_BENCH_STEPS=1 PARETOSCOPE_BENCH_DRAGS=$drags \
    "$build/tests/bench/bench_explorer" 1000000 --keep "$keep" 2>/dev/null | python3 -c '
import collections, re, sys
lines = sys.stdin.read().split("\n")
paints = collections.Counter()
wall, handlers, painting = [], [], []
for i, l in enumerate(lines):
    m = re.match(r"\s+step to (\d+): ([\d.]+) ms wall, ([\d.]+) ms CPU in handlers, ([\d.]+) ms painting", l)
    if not m or m.group(1) == "0":
        continue
    wall.append(float(m.group(2)))
    handlers.append(float(m.group(3)))
    painting.append(float(m.group(4)))
    for widget, ms in re.findall(r"(\S+) ([\d.]+)", lines[i + 1]):
        paints[widget.split("::")[-1]] += float(ms)
n = len(wall)
if n == 0:
    sys.exit("no step moved the target")
wall.sort()
print(f"{n} steps that moved the target: wall median {wall[n // 2]:.1f} ms, p90 {wall[n * 9 // 10]:.1f} ms; "
      f"GUI thread CPU {sum(handlers) / n:.2f} ms in the handlers, {sum(painting) / n:.2f} ms painting")
print("paint per step (ms): " + ", ".join(f"{w} {ms / n:.2f}" for w, ms in paints.most_common(8)))
'
