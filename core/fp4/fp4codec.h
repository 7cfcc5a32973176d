#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace paretoscope::fp4 {

/// E2M1 (1 sign, 2 exponent, 1 mantissa bit) in the low 4 bits: magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6.
float decodeE2M1(std::uint8_t code);
/// Round to nearest, ties to the even code, saturating at +-6. E2M1 has no NaN or infinity: NaN gives +6 and
/// infinities +-6, as cuda_fp4.h's __nv_cvt_float_to_fp4 does; -0 keeps its sign (code 8).
std::uint8_t encodeE2M1(float x);

/// FP8 E4M3 ("fn": bias 7, no infinity, 0x7F/0xFF NaN, largest 448): round to nearest even, saturating to +-448
/// (cuda_fp8.h's __NV_SATFINITE); NaN gives 0x7F.
std::uint8_t encodeE4M3(float x);
float decodeE4M3(std::uint8_t code);

/// E8M0: an unsigned power of two, 2^(code - 127); 0xFF is NaN.
float decodeE8M0(std::uint8_t code);

/// NVFP4 (NVIDIA Model Optimizer's recipe): blocks of 16 values share an E4M3 scale, the tensor one FP32 scale.
/// tensorScale = amax / (6 x 448) (1 for an all-zero tensor); a block's scale = amax(block) / (6 x tensorScale),
/// 1 for an all-zero block, at least 2^-9, stored as E4M3; q = E2M1(x / (blockScale x tensorScale)). Two values per
/// byte, the even element in the low nibble; a last partial block is padded with zeros.
struct Nvfp4Tensor {
    std::size_t count = 0;
    float tensorScale = 1;
    std::vector<std::uint8_t> packed; ///< (count + 1) / 2 bytes
    std::vector<std::uint8_t> blockScales; ///< E4M3, one per 16 values
};
Nvfp4Tensor quantizeNvfp4(std::span<const float> values);
std::vector<float> dequantizeNvfp4(const Nvfp4Tensor& t);

/// MXFP4 (OCP MX v1.0): blocks of 32 values share an E8M0 scale 2^e with e = floor(log2(max |v|)) - 2 (2 is
/// E2M1's largest exponent), clamped to [-127, 127]; an all-zero block takes e = -2 (as if its max were 1). Non-finite
/// values do not set the scale; they saturate like any value out of range. q = E2M1(v / 2^e).
struct Mxfp4Tensor {
    std::size_t count = 0;
    std::vector<std::uint8_t> packed;
    std::vector<std::uint8_t> blockScales; ///< E8M0, one per 32 values
};
Mxfp4Tensor quantizeMxfp4(std::span<const float> values);
std::vector<float> dequantizeMxfp4(const Mxfp4Tensor& t);

inline constexpr std::size_t kNvfp4Block = 16;
inline constexpr std::size_t kMxfp4Block = 32;

} // namespace paretoscope::fp4
