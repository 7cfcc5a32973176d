#include "core/fp4/fp4codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace paretoscope::fp4 {

namespace {

constexpr float kE2M1[8] = { 0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f };

float blockAmax(std::span<const float> values, std::size_t from, std::size_t n)
{
    float m = 0;
    for (std::size_t i = from; i < std::min(values.size(), from + n); ++i)
        if (std::isfinite(values[i]))
            m = std::max(m, std::fabs(values[i]));
    return m;
}

void put(std::vector<std::uint8_t>& packed, std::size_t i, std::uint8_t code)
{
    std::uint8_t& b = packed[i / 2];
    b = (i % 2 == 0) ? static_cast<std::uint8_t>((b & 0xF0) | code)
                     : static_cast<std::uint8_t>((b & 0x0F) | (code << 4));
}

std::uint8_t get(const std::vector<std::uint8_t>& packed, std::size_t i)
{
    std::uint8_t b = packed[i / 2];
    return i % 2 == 0 ? (b & 0x0F) : (b >> 4);
}

} // namespace

float decodeE2M1(std::uint8_t code)
{
    float m = kE2M1[code & 0x7];
    return (code & 0x8) ? -m : m;
}

std::uint8_t encodeE2M1(float x)
{
    if (std::isnan(x))
        return 0x7;
    std::uint8_t sign = std::signbit(x) ? 0x8 : 0x0;
    float a = std::fabs(x);
    if (a >= 6.0f)
        return sign | 0x7;
    // the nearest of the eight magnitudes; on a tie the even code (the odd codes are the .5 mantissas)
    std::uint8_t best = 0;
    for (std::uint8_t c = 1; c < 8; ++c) {
        float dc = std::fabs(a - kE2M1[c]), db = std::fabs(a - kE2M1[best]);
        if (dc < db || (dc == db && (c % 2 == 0)))
            best = c;
    }
    return sign | best;
}

float decodeE4M3(std::uint8_t code)
{
    int sign = (code & 0x80) ? -1 : 1;
    int exp = (code >> 3) & 0xF;
    int man = code & 0x7;
    if (exp == 0xF && man == 0x7)
        return std::numeric_limits<float>::quiet_NaN();
    if (exp == 0)
        return static_cast<float>(sign) * std::ldexp(static_cast<float>(man), -9); // subnormal: man/8 x 2^-6
    return static_cast<float>(sign) * std::ldexp(1.0f + static_cast<float>(man) / 8.0f, exp - 7);
}

std::uint8_t encodeE4M3(float x)
{
    if (std::isnan(x))
        return 0x7F;
    std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
    float a = std::fabs(x);
    if (a >= 448.0f)
        return sign | 0x7E; // satfinite
    // every finite E4M3 value is a multiple of 2^-9 scaled by its binade: round in the binade's step
    int e = a > 0 ? std::ilogb(a) : -10;
    e = std::max(e, -6); // below 2^-6 the step is the subnormal one, 2^-9
    float step = std::ldexp(1.0f, e - 3);
    float q = std::nearbyint(a / step) * step; // the default rounding mode: to nearest, ties to even
    if (q >= 448.0f)
        return sign | 0x7E;
    if (q == 0)
        return sign;
    int qe = std::ilogb(q);
    if (qe < -6) // subnormal
        return sign | static_cast<std::uint8_t>(std::lround(q / std::ldexp(1.0f, -9)));
    int man = static_cast<int>(std::lround((q / std::ldexp(1.0f, qe) - 1.0f) * 8.0f));
    return sign | static_cast<std::uint8_t>(((qe + 7) << 3) | man);
}

float decodeE8M0(std::uint8_t code)
{
    if (code == 0xFF)
        return std::numeric_limits<float>::quiet_NaN();
    return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

Nvfp4Tensor quantizeNvfp4(std::span<const float> values)
{
    Nvfp4Tensor t;
    t.count = values.size();
    t.packed.assign((values.size() + 1) / 2, 0);
    std::size_t blocks = (values.size() + kNvfp4Block - 1) / kNvfp4Block;
    t.blockScales.assign(blocks, 0);
    float amax = blockAmax(values, 0, values.size());
    t.tensorScale = amax > 0 ? amax / (6.0f * 448.0f) : 1.0f;
    for (std::size_t b = 0; b < blocks; ++b) {
        float bmax = blockAmax(values, b * kNvfp4Block, kNvfp4Block);
        float scale = bmax > 0 ? bmax / (6.0f * t.tensorScale) : 1.0f;
        scale = std::max(scale, std::ldexp(1.0f, -9));
        std::uint8_t code = encodeE4M3(scale);
        t.blockScales[b] = code;
        float applied = decodeE4M3(code) * t.tensorScale;
        for (std::size_t i = b * kNvfp4Block; i < std::min(values.size(), (b + 1) * kNvfp4Block); ++i)
            put(t.packed, i, encodeE2M1(values[i] / applied));
    }
    return t;
}

std::vector<float> dequantizeNvfp4(const Nvfp4Tensor& t)
{
    std::vector<float> out(t.count);
    for (std::size_t i = 0; i < t.count; ++i)
        out[i] = decodeE2M1(get(t.packed, i)) * decodeE4M3(t.blockScales[i / kNvfp4Block]) * t.tensorScale;
    return out;
}

Mxfp4Tensor quantizeMxfp4(std::span<const float> values)
{
    Mxfp4Tensor t;
    t.count = values.size();
    t.packed.assign((values.size() + 1) / 2, 0);
    std::size_t blocks = (values.size() + kMxfp4Block - 1) / kMxfp4Block;
    t.blockScales.assign(blocks, 0);
    for (std::size_t b = 0; b < blocks; ++b) {
        float bmax = blockAmax(values, b * kMxfp4Block, kMxfp4Block);
        int e = (bmax > 0 ? std::ilogb(bmax) : 0) - 2; // floor(log2), exact for every float including subnormals
        e = std::clamp(e, -127, 127);
        t.blockScales[b] = static_cast<std::uint8_t>(e + 127);
        for (std::size_t i = b * kMxfp4Block; i < std::min(values.size(), (b + 1) * kMxfp4Block); ++i)
            put(t.packed, i, encodeE2M1(std::ldexp(values[i], -e)));
    }
    return t;
}

std::vector<float> dequantizeMxfp4(const Mxfp4Tensor& t)
{
    std::vector<float> out(t.count);
    for (std::size_t i = 0; i < t.count; ++i)
        out[i] = decodeE2M1(get(t.packed, i)) * decodeE8M0(t.blockScales[i / kMxfp4Block]);
    return out;
}

} // namespace paretoscope::fp4
