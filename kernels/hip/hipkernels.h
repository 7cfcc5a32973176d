#pragma once

#include <cstddef>
#include <cstdint>
#include <hip/hip_runtime_api.h>

namespace paretoscope::hip {

/// MXFP4 dequantize to BF16 (the bits, as unsigned short): CDNA3 has no FP4 matrix unit, so on MI325X FP4 weights
/// are dequantized and multiplied in BF16. packed holds two values a byte, the lower nibble first, scales one E8M0 per
/// 32 values (core/fp4/fp4codec.h). n must be a positive multiple of 32 and packed and out 16-byte aligned (one
/// 16-byte load and four 16-byte stores a block; hipMalloc's pointers are): otherwise hipErrorInvalidValue and
/// nothing is launched.
hipError_t launchMxfp4Dequantize(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t n, std::uint16_t* out, hipStream_t stream);

/// D = A x B in BF16 with FP32 accumulation on the matrix cores (MFMA 32x32x8): A is M x K row-major (K contiguous),
/// B is N x K (K contiguous), D is M x N column-major BF16. M and N multiples of 128, K a multiple of 32.
void launchBf16Gemm(
    const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* d, int m, int n, int k, hipStream_t stream);

/// Fill with pseudo-random data from seed (kernels/devicerandom.h): count bytes when bf16 is false (every E2M1 code
/// and most E8M0 scales are values), else count BF16 values uniform in [-1, 1).
void launchRandomFill(void* p, std::size_t count, bool bf16, std::uint64_t seed, hipStream_t stream);

} // namespace paretoscope::hip
