#pragma once

// The decode arithmetic of the CUDA dequantize kernels, built from float bits with selects only, so nvcc compiles it
// to a handful of integer operations on every architecture (cuda_fp4.h's conversion is a branchy software routine on
// sm_90). Plain C++ as well, so tst_fp4 checks it bit-exact against core/fp4 on the CPU.
#include <cstdint>

#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

#if defined(__CUDACC__)
#define PS_FP4_HOST_DEVICE __host__ __device__
#else
#define PS_FP4_HOST_DEVICE
#endif

namespace paretoscope::cuda::decode {

/// The float bits of an E2M1 code (low 4 bits): magnitude code m >= 2 is (m << 22) + 0x3F000000, m = 1 is 0.5
/// (0x3F000000), m = 0 is zero; the sign is bit 3 moved to bit 31.
PS_FP4_HOST_DEVICE constexpr std::uint32_t e2m1Bits(std::uint32_t code)
{
    const std::uint32_t m = code & 7u;
    // m x 0x3F000000 is 0.5 for m = 1 and 0 for m = 0: two multiply-adds and a select
    const std::uint32_t mag = m >= 2 ? (m << 22) + 0x3F000000u : m * 0x3F000000u;
    return mag | ((code & 8u) << 28);
}

/// The float bits of an E4M3 ("fn") code: bias 7, 0x7F and 0xFF NaN, exponent field 0 the subnormals m x 2^-9.
PS_FP4_HOST_DEVICE constexpr std::uint32_t e4m3Bits(std::uint32_t code)
{
    const std::uint32_t e = (code >> 3) & 0xFu, m = code & 7u, sign = (code & 0x80u) << 24;
    const std::uint32_t normal = ((e + 120u) << 23) | (m << 20);
    // a subnormal m x 2^-9 normalised: the leading bit of m (m = 1..7) sets the exponent, the rest the mantissa
    const std::uint32_t lead = m >= 4 ? 2u : m >= 2 ? 1u : 0u;
    const std::uint32_t sub
        = (((lead + 118u) << 23) | (((m << (3u - lead)) & 7u) << 20)) & (0u - std::uint32_t(m != 0));
    const std::uint32_t mag = (code & 0x7Fu) == 0x7Fu ? 0x7FC00000u : e == 0 ? sub : normal;
    return mag | sign;
}

/// The float bits of an E8M0 code: 2^(code - 127), code 0 the subnormal 2^-127, 0xFF a quiet NaN.
PS_FP4_HOST_DEVICE constexpr std::uint32_t e8m0Bits(std::uint32_t code)
{
    return code == 0xFFu ? 0x7FC00000u : code == 0 ? 0x00400000u : code << 23;
}

PS_FP4_HOST_DEVICE inline float asFloat(std::uint32_t bits)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    return std::bit_cast<float>(bits);
#endif
}

PS_FP4_HOST_DEVICE inline std::uint32_t asBits(float x)
{
#if defined(__CUDA_ARCH__)
    return __float_as_uint(x);
#else
    return std::bit_cast<std::uint32_t>(x);
#endif
}

/// An NVFP4 value as float, in core/fp4's order: (q x block scale) x tensor scale. The kernel rounds it to BF16.
PS_FP4_HOST_DEVICE inline float nvfp4Value(std::uint32_t code, float blockScale, float tensorScale)
{
    return asFloat(e2m1Bits(code)) * blockScale * tensorScale;
}

/// An MXFP4 value q x 2^k as float bits: exact, and exact in BF16 too (2 significant bits against BF16's 8, and
/// 0.5 x 2^-127 is a BF16 subnormal), so the BF16 value is the upper half with no rounding step.
PS_FP4_HOST_DEVICE inline std::uint32_t mxfp4Bits(std::uint32_t code, float scale)
{
    return asBits(asFloat(e2m1Bits(code)) * scale);
}

} // namespace paretoscope::cuda::decode
