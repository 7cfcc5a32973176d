#pragma once

#include <cstddef>
#include <string>

#include "core/model/result.h"

namespace paretoscope::hip {

/// What the HIP probe measures and how hard it tries.
struct ProbeOptions {
    int device = 0;
    std::size_t bandwidthBytes = std::size_t(1) << 30; ///< per copy buffer
    int warmups = 5;
    int runs = 30; ///< timed runs; the median is reported
    int gemmSize = 8192; ///< M = N = K of the throughput GEMM
};

/// On an AMD GPU: checks the MXFP4 dequantize kernel (exact, against the CPU reference) and the BF16 GEMM kernel
/// (within tolerance, on random data), then measures copy bandwidth, dequantize bandwidth and the GEMM rate with HIP
/// events. The result is JSON shaped like the CUDA probe's; an error when there is no HIP device or a HIP call fails
/// (naming the call).
Result<std::string> runProbe(const ProbeOptions& options);

} // namespace paretoscope::hip
