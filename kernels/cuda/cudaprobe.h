#pragma once

#include <string>

#include "core/model/result.h"

namespace paretoscope::cuda {

/// What the CUDA probe measures and how hard it tries.
struct ProbeOptions {
    int device = 0;
    std::size_t bandwidthBytes = std::size_t(1) << 30; ///< per copy buffer
    int warmups = 5;
    int runs = 30; ///< timed runs; the median is reported
    int gemmSize = 8192; ///< M = N = K of the throughput GEMMs
};

/// Runs the kernels' checks against the CPU reference (quantize bit-exact, dequantize exact, GEMMs within tolerance
/// on random data) and measures copy bandwidth, dequantize bandwidth and GEMM rates with CUDA events. The result is
/// JSON (see docs/probe.md); an error when there is no CUDA device or a CUDA call fails (naming the call).
Result<std::string> runProbe(const ProbeOptions& options);

} // namespace paretoscope::cuda
