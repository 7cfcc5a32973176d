#!/bin/bash
# The adaptive sweep against the fixed list, in one script: on the emulator's b300-sim profile, `bench --concurrency
# auto` and `--concurrency 1,2,4,...,512` with the same workload; prints each sweep's levels and wall time, whether
# each of the six default targets (30, 50, 75, 100, 150, 200 tok/s/user) is bracketed with a level within 15%, and
# the ratios (goal: auto at most 60% of the levels and of the wall time). A figure, not a pass/fail test.
#   tests/bench/bench_adaptive.sh [BUILD_DIR] [ISL] [OSL]
set -euo pipefail
build=${1:-build}
isl=${2:-1024}
osl=${3:-64}
cli=$build/app/paretoscope-cli
sim=$build/enginesim/paretoscope-engine-sim
work=$(mktemp -d)
trap 'kill "$simpid" 2>/dev/null || true; rm -rf "$work"' EXIT

"$sim" --profile b300-sim --port 0 >"$work/sim.log" 2>&1 &
simpid=$!
for _ in $(seq 50); do grep -q listening "$work/sim.log" && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$work/sim.log" | head -1)

sweep() { # NAME CONCURRENCY
    local start end
    start=$(date +%s.%N)
    "$cli" bench --endpoint "http://127.0.0.1:$port" --model sim-model --hardware b300 --engine vllm \
        --isl "$isl" --osl "$osl" --concurrency "$2" --db "$work/$1.db" >"$work/$1.jsonl" 2>"$work/$1.err"
    end=$(date +%s.%N)
    echo "$end - $start" | bc >"$work/$1.wall"
}
sweep fixed 1,2,4,8,16,32,64,128,256,512
sweep auto auto

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
targets = [30, 50, 75, 100, 150, 200]
def load(name):
    levels = [json.loads(l) for l in open(f"{work}/{name}.jsonl")]
    return levels, float(open(f"{work}/{name}.wall").read())
def bracketed(levels, t, tol=0.15):
    pts = sorted((l["concurrency"], l["interactivity"]) for l in levels)
    for (ca, a), (cb, b) in zip(pts, pts[1:]):
        if a >= t >= b:
            return min(a - t, t - b) <= tol * t or cb - ca <= 1
    return False
res = {}
for name in ("fixed", "auto"):
    levels, wall = load(name)
    res[name] = (len(levels), wall)
    print(f"{name}: {len(levels)} levels, {wall:.1f} s wall")
    for l in levels:
        print(f"  c={l['concurrency']:4d}  {l['tput_per_gpu']:9.0f} tok/s/GPU  {l['interactivity']:6.1f} tok/s/user"
              f"  TTFT {1000 * l['ttft_s']['median']:7.1f} ms  {l['duration_s']:5.1f} s"
              f"  {','.join(l['validity']) or '-'}  {l.get('chosen_because', '')}")
    print("  targets bracketed within 15%:", " ".join(f"{t}:{'yes' if bracketed(levels, t) else 'no'}" for t in targets))
(fl, fw), (al, aw) = res["fixed"], res["auto"]
print(f"ratio auto/fixed: levels {al}/{fl} = {al / fl:.0%}, wall time {aw:.1f}/{fw:.1f} s = {aw / fw:.0%}")
PY
