#!/usr/bin/env bash
# The GPU checks of the FP4 kernels, as one prepared run for a machine with an NVIDIA GPU and nvcc but none of the
# project's other dependencies (no Qt, no SQLite): builds paretoscope-probe directly with nvcc, runs it (the kernels'
# checks against the CPU reference, then copy and dequantize bandwidth and GEMM rates), keeps its JSON, and prints the
# figures: achieved copy bandwidth, dequantize bandwidth as a share of it (goal: 85% or more), GEMM rates.
#
# Usage: scripts/gpu-check.sh [SM_ARCH] [OUT_DIR]   e.g. scripts/gpu-check.sh sm_90 "$OUT" on an H200,
#        sm_103a on a B300. Needs nothing beyond the CUDA toolkit and a clean clone: the probe writes its JSON itself
#        (kernels/probejson.h) and this build leaves out the device-profile code that parses JSON (--save refused).
#        Exits as the probe does: 1 with "no GPU to probe" where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:-sm_90}
out=${2:-gpu-check}
mkdir -p "$out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuda=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$out/gpu.txt" || true
"$nvcc" --version | tail -2
# -rpath: libcublasLt.so.13 is found in the toolkit's lib64 without LD_LIBRARY_PATH
time "$nvcc" -std=c++20 -O3 -arch="$arch" -I. -Icore -DPARETOSCOPE_HAVE_CUDA -DPARETOSCOPE_PROBE_STANDALONE \
    -o "$out/paretoscope-probe" kernels/probe/main.cpp kernels/cuda/fp4kernels.cu kernels/cuda/cudaprobe.cu \
    core/fp4/fp4codec.cpp core/model/hardware.cpp core/live/devices.cpp core/live/gpunvml.cpp core/live/gpurocm.cpp \
    -L"$cuda/lib64" -Xlinker -rpath,"$cuda/lib64" -lcublasLt -ldl
status=0
"$out/paretoscope-probe" --runs 30 >"$out/probe.json" || status=$?
if [ "$status" -ne 0 ]; then
    echo "paretoscope-probe failed (exit $status)"
    exit "$status"
fi
python3 - "$out/probe.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("device:", j["device"])
# a section that failed holds {"error": ...}; the others are printed all the same
checks = j["checks"]
if "error" in checks:
    print("checks: ERROR", checks["error"])
else:
    for name, c in checks.items():
        print(f"check {name}: {'pass' if c.get('pass') else 'FAIL'} {c}")
b = j["bandwidth"]
if "error" in b:
    print("bandwidth: ERROR", b["error"])
else:
    print(f"copy bandwidth: {b['copy_bytes_per_s'] / 1e12:.3f} TB/s (bytes read plus written)")
    for k in ("nvfp4", "mxfp4"):
        if f"{k}_dequantize_bytes_per_s" in b:
            print(f"{k} dequantize: {b[k + '_dequantize_bytes_per_s'] / 1e12:.3f} TB/s = "
                  f"{100 * b[k + '_dequantize_share_of_copy']:.1f}% of copy (goal 85%)")
for k, g in j["gemm"].items():
    if "flops_per_s" in g:
        print(f"gemm {k}: {g['flops_per_s'] / 1e12:.1f} TFLOP/s at {g['m_n_k']}^3, check "
              f"{'pass' if g.get('pass') else 'FAIL'} (worst error / tolerance {g.get('worst_error_over_tolerance')})")
    else:
        print(f"gemm {k}: {g}")
PY
