#pragma once

// The arithmetic of the HIP kernels, in one header that hipcc compiles for the device and the tests compile for the
// CPU (tst_fp4), so the decode, the rounding and the matrix-core index maps are checked where no AMD GPU is present.
#include <cstdint>

#if defined(__HIPCC__)
#define PS_HOST_DEVICE __host__ __device__
#else
#define PS_HOST_DEVICE
#endif

// unrolled by hipcc (clang) and by GCC alike, without an unknown-pragma warning in either
#if defined(__clang__)
#define PS_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define PS_UNROLL _Pragma("GCC unroll 16")
#else
#define PS_UNROLL
#endif

namespace paretoscope::hip::math {

/// E2M1 code (low 4 bits) to its float bits, with a select and no branch: magnitude code m >= 2 is
/// (m << 22) + 0x3F000000, m = 1 is 0.5 (0x3F000000 = m x 0x3F000000), m = 0 is zero; the sign is bit 3 to bit 31.
PS_HOST_DEVICE inline std::uint32_t e2m1Bits(unsigned code)
{
    const std::uint32_t m = code & 7u;
    const std::uint32_t mag = m >= 2 ? (m << 22) + 0x3F000000u : m * 0x3F000000u;
    return mag | ((code & 8u) << 28);
}

/// E2M1 code (low 4 bits) to its value: magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6; the sign is bit 3.
PS_HOST_DEVICE inline float decodeE2M1(unsigned code)
{
    return __builtin_bit_cast(float, e2m1Bits(code));
}

/// E8M0 code to 2^(code - 127), built from its bits so it is exact (code 0 is the subnormal 2^-127); 0xFF is NaN.
PS_HOST_DEVICE inline float decodeE8M0(unsigned code)
{
    const std::uint32_t bits = code == 0xFF ? 0x7FC00000u : code == 0 ? 0x00400000u : std::uint32_t(code) << 23;
    return __builtin_bit_cast(float, bits);
}

/// float to BF16 bits, round to nearest even; a NaN stays a quiet NaN.
PS_HOST_DEVICE inline std::uint16_t bf16Bits(float x)
{
    const std::uint32_t u = __builtin_bit_cast(std::uint32_t, x);
    const std::uint16_t rounded = static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
    return (u & 0x7FFFFFFFu) > 0x7F800000u ? static_cast<std::uint16_t>((u >> 16) | 0x0040u) : rounded;
}

/// One MXFP4 block: 32 values in four 32-bit words (two a byte, the lower nibble first) and its scale code, to 32
/// BF16 as sixteen words of two (value 2i in the lower half). q x 2^k is exact in float and in BF16 (2 significant
/// bits against 8; 0.5 x 2^-127 is a BF16 subnormal), so each BF16 is the float's upper half, no rounding step; a NaN
/// scale (0xFF) gives the float NaN's upper half, still a NaN.
PS_HOST_DEVICE inline void dequantizeMxfp4Block(const unsigned words[4], unsigned scaleCode, unsigned out[16])
{
    const float s = decodeE8M0(scaleCode);
    PS_UNROLL
    for (int i = 0; i < 16; ++i) {
        const unsigned byte = words[i / 4] >> (8 * (i % 4));
        const std::uint32_t lo = __builtin_bit_cast(std::uint32_t, decodeE2M1(byte) * s);
        const std::uint32_t hi = __builtin_bit_cast(std::uint32_t, decodeE2M1(byte >> 4) * s);
        out[i] = (lo >> 16) | (hi & 0xFFFF0000u);
    }
}

// The BF16 GEMM's geometry: a workgroup of 4 waves of 64 lanes computes a kTile x kTile tile of D; wave w the 64 x 64
// quarter (w / 2, w % 2), as 2 x 2 products of MFMA 32x32x8.
inline constexpr int kGemmTile = 128;
inline constexpr int kGemmTileK = 32;
inline constexpr int kGemmThreads = 256;

/// First row (of D and A) of wave w's quarter within the tile, and its first column (of D, a row of B).
PS_HOST_DEVICE constexpr int waveRow(int wave)
{
    return (wave / 2) * 64;
}
PS_HOST_DEVICE constexpr int waveCol(int wave)
{
    return (wave % 2) * 64;
}

/// MFMA 32x32x8 (bf16_1k) operands, from AMD's matrix instruction layout: lane l holds row (l % 32) of the A block
/// and column (l % 32) of the B block, each at K = 4 (l / 32) .. 4 (l / 32) + 3.
PS_HOST_DEVICE constexpr int mfmaOperandRow(int lane)
{
    return lane % 32;
}
PS_HOST_DEVICE constexpr int mfmaOperandK(int lane)
{
    return (lane / 32) * 4;
}
/// Result value v (0..15) of lane l is D[mfmaResultRow(l, v)][mfmaResultCol(l)] of the 32 x 32 block.
PS_HOST_DEVICE constexpr int mfmaResultRow(int lane, int v)
{
    return 8 * (v / 4) + 4 * (lane / 32) + v % 4;
}
PS_HOST_DEVICE constexpr int mfmaResultCol(int lane)
{
    return lane % 32;
}

/// Staging of a kTile x kTileK slice of A (or B) into LDS: thread t moves 8 values (16 bytes) per pass, two passes.
PS_HOST_DEVICE constexpr int stageRow(int thread, int pass)
{
    return thread / 4 + pass * 64;
}
PS_HOST_DEVICE constexpr int stageCol(int thread)
{
    return (thread % 4) * 8;
}

} // namespace paretoscope::hip::math
