#pragma once

// Host-side pieces the CUDA and the HIP probes share: random inputs, the median of timed runs, and the check of a
// BF16 product against a double-precision reference with its stated tolerance.
#include "kernels/probejson.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace paretoscope::probe {

inline std::vector<float> randomNormal(std::size_t n, unsigned seed, float sigma)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0, sigma);
    std::vector<float> v(n);
    for (float& x : v)
        x = d(rng);
    return v;
}

/// The median of timings (ms), NaN for none; `ms` is reordered.
inline double medianOf(std::vector<float>& ms)
{
    if (ms.empty())
        return std::nan(""); // no runs: no figure (the probe refuses --runs 0)
    const auto middle = ms.begin() + static_cast<std::ptrdiff_t>(ms.size() / 2);
    std::nth_element(ms.begin(), middle, ms.end());
    return ms[ms.size() / 2];
}

inline float bf16Value(std::uint16_t bits)
{
    const std::uint32_t u = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

/// cuBLASLt's VEC16_UE4M3 block scales (one per 16 values along K) of a matrix with `rows` rows: the bytes of the
/// buffer, roundup(K, 64) / 16 x roundup(rows, 128), in 128 x 4 tiles of 512 bytes.
inline std::size_t vec16ScaleBytes(std::size_t rows, std::size_t k)
{
    return (k + 63) / 64 * 64 / 16 * ((rows + 127) / 128 * 128);
}
/// Where the scale of row r and 16-value block c lies in that buffer (cuBLAS docs, "block scaling factors layout";
/// CUDALibrarySamples LtNvfp4Matmul): 128 x 4 tiles, rows across them in 32-row groups of 16 bytes.
inline std::size_t vec16ScaleOffset(std::size_t r, std::size_t c, std::size_t k)
{
    const std::size_t nC = (k + 63) / 64 * 64 / 16;
    return ((r / 128) * (nC / 4) + c / 4) * 512 + (r % 32) * 16 + ((r % 128) / 32) * 4 + (c % 4);
}

/// Relative accumulation error of an FP32 accumulator (BF16 and FP4 products, the HIP kernel), per unit of the sum
/// of |products|: about 2^-17, room for FP32's 2^-24 rounding over the few hundred additions of the check.
inline constexpr double kFp32Accumulation = 1e-5;
/// The same for FP8 on Hopper's tensor cores, which keep about 14 significant bits while accumulating (not FP32's
/// 24): a product's partial sums lose up to 2^-13 of their size per addition, which on random data stays within
/// mag x 2^-12. 1e-5 made about 8 of 65,536 elements fail, dropping a correct FP8 rate from the profile.
inline constexpr double kFp8Accumulation = 1.0 / 4096;

/// D (m x n, column-major BF16 bits) against alpha x A B^T in double (alpha scales the reference, not the
/// accumulation term of the tolerance), with A m x k and B n x k (K contiguous), given as the exact values the
/// device was handed. Tolerance per element: |ref| / 128 (BF16's rounding of the result, with room) plus
/// accumulation x the sum of |products| (the accumulator's precision: kFp32Accumulation or kFp8Accumulation).
/// Passes when every element is within it and most are not zero (a kernel that wrote nothing does not pass).
inline Json checkBf16Product(const std::vector<double>& a, const std::vector<double>& b,
    const std::vector<std::uint16_t>& d, int m, int n, int k, double alpha, double accumulation = kFp32Accumulation)
{
    double worst = 0;
    std::size_t nonzero = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double ref = 0, mag = 0;
            for (int q = 0; q < k; ++q) {
                const double p = a[std::size_t(i) * k + q] * b[std::size_t(j) * k + q];
                ref += p;
                mag += std::fabs(p);
            }
            ref *= alpha;
            const float value = bf16Value(d[std::size_t(j) * m + i]);
            nonzero += value != 0;
            worst = std::max(worst, std::fabs(value - ref) / (std::fabs(ref) / 128 + mag * accumulation + 1e-30));
        }
    return { { "check_size", m }, { "accumulation_tolerance", accumulation }, { "worst_error_over_tolerance", worst },
        { "pass", worst <= 1.0 && nonzero > std::size_t(m) * n / 2 } };
}

} // namespace paretoscope::probe
