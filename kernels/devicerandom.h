#pragma once

// Pseudo-random data made on the device for the timed buffers: constant data lets every lane take the same path and
// flatters the figures (a constant GEMM ran 13% faster than a random one on an H200). A counter hash (splitmix64's
// finaliser), so any element is computed alone and a fill is reproducible from its seed.
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define PS_RANDOM_HOST_DEVICE __host__ __device__
#else
#define PS_RANDOM_HOST_DEVICE
#endif

namespace paretoscope::probe {

/// 64 well-mixed bits for element i of the stream seed.
PS_RANDOM_HOST_DEVICE inline std::uint64_t hash64(std::uint64_t seed, std::uint64_t i)
{
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// A float uniform in [-1, 1) on a 2^-23 grid (exact in float).
PS_RANDOM_HOST_DEVICE inline float uniformPm1(std::uint64_t seed, std::uint64_t i)
{
    return float(std::int32_t(hash64(seed, i) >> 40) - (1 << 23)) * (1.0f / float(1 << 23));
}

} // namespace paretoscope::probe
