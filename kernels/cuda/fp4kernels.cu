// FP4 quantize and dequantize kernels. Quantize follows core/fp4/fp4codec.cpp step for step (same float operations,
// cuda_fp4.h / cuda_fp8.h conversions, whose host versions the reference is tested against), so the probe can
// require bit-exact agreement.
#include "fp4kernels.cuh"

#include <cuda_fp4.h>
#include <cuda_fp8.h>

namespace paretoscope::cuda {

namespace {

constexpr int kThreads = 256;

__device__ float decodeE4M3(std::uint8_t code)
{
    __half_raw h = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(code), __NV_E4M3);
    return __half2float(__half(h));
}

__device__ std::uint8_t encodeE4M3(float x)
{
    return static_cast<std::uint8_t>(__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3));
}

__device__ std::uint8_t encodeE2M1(float x)
{
    return static_cast<std::uint8_t>(__nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest)) & 0x0F;
}

__device__ float decodeE2M1(std::uint8_t code)
{
    __half_raw h = __nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(code), __NV_E2M1);
    return __half2float(__half(h));
}

// The largest finite |x| of x[from, to), as the reference's blockAmax.
__device__ float blockAmax(const float* x, std::size_t from, std::size_t to)
{
    float m = 0;
    for (std::size_t i = from; i < to; ++i)
        if (isfinite(x[i]))
            m = fmaxf(m, fabsf(x[i]));
    return m;
}

__global__ void amaxKernel(const float* x, std::size_t n, unsigned* out)
{
    float m = 0;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        if (isfinite(x[i]))
            m = fmaxf(m, fabsf(x[i]));
    for (int off = 16; off > 0; off /= 2)
        m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, off));
    if ((threadIdx.x & 31) == 0)
        atomicMax(out, __float_as_uint(m));
}

__global__ void nvfp4QuantizeKernel(
    const float* x, std::size_t n, float tensorScale, std::uint8_t* packed, std::uint8_t* scales)
{
    std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    std::size_t from = b * 16;
    if (from >= n)
        return;
    std::size_t to = min(n, from + 16);
    float bmax = blockAmax(x, from, to);
    float scale = bmax > 0 ? bmax / (6.0f * tensorScale) : 1.0f;
    scale = fmaxf(scale, ldexpf(1.0f, -9));
    std::uint8_t code = encodeE4M3(scale);
    scales[b] = code;
    float applied = decodeE4M3(code) * tensorScale;
    for (std::size_t i = from; i < to; i += 2) {
        std::uint8_t lo = encodeE2M1(x[i] / applied);
        std::uint8_t hi = i + 1 < to ? encodeE2M1(x[i + 1] / applied) : 0;
        packed[i / 2] = static_cast<std::uint8_t>(lo | (hi << 4));
    }
}

__global__ void mxfp4QuantizeKernel(const float* x, std::size_t n, std::uint8_t* packed, std::uint8_t* scales)
{
    std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    std::size_t from = b * 32;
    if (from >= n)
        return;
    std::size_t to = min(n, from + 32);
    float bmax = blockAmax(x, from, to);
    int e = (bmax > 0 ? ilogbf(bmax) : 0) - 2;
    e = max(-127, min(127, e));
    scales[b] = static_cast<std::uint8_t>(e + 127);
    for (std::size_t i = from; i < to; i += 2) {
        std::uint8_t lo = encodeE2M1(ldexpf(x[i], -e));
        std::uint8_t hi = i + 1 < to ? encodeE2M1(ldexpf(x[i + 1], -e)) : 0;
        packed[i / 2] = static_cast<std::uint8_t>(lo | (hi << 4));
    }
}

// One thread per block: 16 values in 8 bytes (one 64-bit load), written as 16 BF16 in two 16-byte stores.
__global__ void nvfp4DequantizeKernel(
    const std::uint8_t* packed, const std::uint8_t* scales, float tensorScale, std::size_t blocks, __nv_bfloat16* out)
{
    std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (b >= blocks)
        return;
    float s = decodeE4M3(scales[b]) * tensorScale;
    uint2 q = reinterpret_cast<const uint2*>(packed)[b];
    __align__(16) __nv_bfloat16 v[16];
    unsigned words[2] = { q.x, q.y };
#pragma unroll
    for (int i = 0; i < 16; ++i)
        v[i] = __float2bfloat16_rn(decodeE2M1((words[i / 8] >> (4 * (i % 8))) & 0xF) * s);
    uint4* dst = reinterpret_cast<uint4*>(out + b * 16);
    dst[0] = reinterpret_cast<uint4*>(v)[0];
    dst[1] = reinterpret_cast<uint4*>(v)[1];
}

// One thread per block: 32 values in 16 bytes (one 128-bit load), four 16-byte stores.
__global__ void mxfp4DequantizeKernel(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t blocks, __nv_bfloat16* out)
{
    std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (b >= blocks)
        return;
    float s = ldexpf(1.0f, int(scales[b]) - 127);
    uint4 q = reinterpret_cast<const uint4*>(packed)[b];
    unsigned words[4] = { q.x, q.y, q.z, q.w };
    __align__(16) __nv_bfloat16 v[32];
#pragma unroll
    for (int i = 0; i < 32; ++i)
        v[i] = __float2bfloat16_rn(decodeE2M1((words[i / 8] >> (4 * (i % 8))) & 0xF) * s);
    uint4* dst = reinterpret_cast<uint4*>(out + b * 32);
#pragma unroll
    for (int k = 0; k < 4; ++k)
        dst[k] = reinterpret_cast<uint4*>(v)[k];
}

unsigned gridFor(std::size_t items)
{
    return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

} // namespace

void launchAmax(const float* x, std::size_t n, unsigned* amaxBits, cudaStream_t stream)
{
    amaxKernel<<<1024, kThreads, 0, stream>>>(x, n, amaxBits);
}

void launchNvfp4Quantize(const float* x, std::size_t n, float tensorScale, std::uint8_t* packed, std::uint8_t* scales,
    cudaStream_t stream)
{
    std::size_t blocks = (n + 15) / 16;
    nvfp4QuantizeKernel<<<gridFor(blocks), kThreads, 0, stream>>>(x, n, tensorScale, packed, scales);
}

void launchMxfp4Quantize(const float* x, std::size_t n, std::uint8_t* packed, std::uint8_t* scales, cudaStream_t stream)
{
    std::size_t blocks = (n + 31) / 32;
    mxfp4QuantizeKernel<<<gridFor(blocks), kThreads, 0, stream>>>(x, n, packed, scales);
}

void launchNvfp4Dequantize(const std::uint8_t* packed, const std::uint8_t* scales, float tensorScale, std::size_t n,
    __nv_bfloat16* out, cudaStream_t stream)
{
    nvfp4DequantizeKernel<<<gridFor(n / 16), kThreads, 0, stream>>>(packed, scales, tensorScale, n / 16, out);
}

void launchMxfp4Dequantize(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t n, __nv_bfloat16* out, cudaStream_t stream)
{
    mxfp4DequantizeKernel<<<gridFor(n / 32), kThreads, 0, stream>>>(packed, scales, n / 32, out);
}

} // namespace paretoscope::cuda
