#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

namespace paretoscope::cuda {

/// amax of |x| over finite values, into *amaxBits (the float's bits; positive floats order as integers). The caller
/// zeroes it first.
void launchAmax(const float* x, std::size_t n, unsigned* amaxBits, cudaStream_t stream);
/// NVFP4 quantize (one thread per 16-value block), the same arithmetic as core/fp4/fp4codec.cpp.
void launchNvfp4Quantize(
    const float* x, std::size_t n, float tensorScale, std::uint8_t* packed, std::uint8_t* scales, cudaStream_t stream);
/// MXFP4 quantize (one thread per 32-value block).
void launchMxfp4Quantize(
    const float* x, std::size_t n, std::uint8_t* packed, std::uint8_t* scales, cudaStream_t stream);
/// Dequantize n values to BF16 (the precision a GEMM consumes on hardware without an FP4 matrix unit), any n > 0 (a
/// partial last block included). packed must be 4-byte aligned and out 16-byte aligned (cudaMalloc's are); n = 0 or
/// a misaligned pointer returns an error and launches nothing.
cudaError_t launchNvfp4Dequantize(const std::uint8_t* packed, const std::uint8_t* scales, float tensorScale,
    std::size_t n, __nv_bfloat16* out, cudaStream_t stream);
cudaError_t launchMxfp4Dequantize(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t n, __nv_bfloat16* out, cudaStream_t stream);

/// What launchRandomFill writes: any bytes (every E2M1 code is a value), or values uniform in [-1, 1) as BF16 or as
/// FP8 E4M3.
enum class RandomFill { Bytes, Bf16, E4m3 };
/// Fill count elements (bytes, or 2-byte BF16) with pseudo-random data from seed (kernels/devicerandom.h).
cudaError_t launchRandomFill(void* p, std::size_t count, RandomFill kind, std::uint64_t seed, cudaStream_t stream);

} // namespace paretoscope::cuda
