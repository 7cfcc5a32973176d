// FP4 quantize and dequantize kernels. Quantize follows core/fp4/fp4codec.cpp step for step (same float operations,
// cuda_fp4.h / cuda_fp8.h conversions, whose host versions the reference is tested against), so the probe can
// require bit-exact agreement.
#include "fp4kernels.cuh"

#include "fp4decode.h"
#include "kernels/devicerandom.h"

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

// Eight values a thread: one 32-bit load of packed codes, one 16-byte store, so a warp's store covers 512 contiguous
// bytes. The decode is decode::e2m1Bits (selects, no branches); where the architecture converts E2M1 itself
// (sm_100a/sm_103a and the other family-specific Blackwell targets: cvt.rn.f16x2.e2m1x2, the condition cuda_fp8.h
// uses) a byte's two values come from one instruction, exact in FP16 and so in float. A thread whose eight straddle
// n writes its part value by value, reading only the bytes that exist.
__device__ inline float2 e2m1Pair(std::uint32_t byte)
{
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && (__CUDA_ARCH_FAMILY_SPECIFIC__ >= 1000)
    return __half22float2(
        __half2(__nv_cvt_fp4x2_to_halfraw2(static_cast<__nv_fp4x2_storage_t>(byte & 0xFF), __NV_E2M1)));
#else
    return make_float2(decode::asFloat(decode::e2m1Bits(byte)), decode::asFloat(decode::e2m1Bits(byte >> 4)));
#endif
}
// NVFP4: (q x block scale) x tensor scale, the reference's order, rounded to BF16 two at a time.
__global__ void nvfp4DequantizeKernel(
    const std::uint8_t* packed, const std::uint8_t* scales, float tensorScale, std::size_t n, __nv_bfloat16* out)
{
    const std::size_t first = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) * 8;
    if (first >= n)
        return;
    const float bs = decodeE4M3(scales[first / 16]); // cvt.rn.f16x2.e4m3x2 on sm_89+: exact, as decode::e4m3Bits
    if (first + 8 <= n) {
        const std::uint32_t w = reinterpret_cast<const std::uint32_t*>(packed)[first / 8];
        uint4 v;
        std::uint32_t* words = &v.x;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float2 q = e2m1Pair(w >> (8 * i)); // (q x bs) x ts, as decode::nvfp4Value
            const float lo = q.x * bs * tensorScale, hi = q.y * bs * tensorScale;
            __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
            words[i] = *reinterpret_cast<std::uint32_t*>(&pair);
        }
        *reinterpret_cast<uint4*>(out + first) = v;
        return;
    }
#pragma unroll 1
    for (std::size_t i = first; i < n; ++i)
        out[i] = __float2bfloat16_rn(decode::nvfp4Value(packed[i / 2] >> (4 * (i % 2)), bs, tensorScale));
}

// MXFP4: q x 2^k is exact in float and in BF16 (E2M1 has 2 significant bits, BF16 8), so the BF16 value is the
// float's upper half: no rounding step.
__global__ void mxfp4DequantizeKernel(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t n, __nv_bfloat16* out)
{
    const std::size_t first = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) * 8;
    if (first >= n)
        return;
    const float s = __uint_as_float(decode::e8m0Bits(scales[first / 32]));
    if (first + 8 <= n) {
        const std::uint32_t w = reinterpret_cast<const std::uint32_t*>(packed)[first / 8];
        uint4 v;
        std::uint32_t* words = &v.x;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float2 q = e2m1Pair(w >> (8 * i)); // q x 2^k, as decode::mxfp4Bits
            const std::uint32_t lo = __float_as_uint(q.x * s), hi = __float_as_uint(q.y * s);
            words[i] = __byte_perm(lo, hi, 0x7632); // the upper halves, lo's in the lower
        }
        *reinterpret_cast<uint4*>(out + first) = v;
        return;
    }
#pragma unroll 1
    for (std::size_t i = first; i < n; ++i) {
        const std::uint16_t bits = decode::mxfp4Bits(packed[i / 2] >> (4 * (i % 2)), s) >> 16;
        out[i] = *reinterpret_cast<const __nv_bfloat16*>(&bits);
    }
}

__global__ void randomFillKernel(void* p, std::size_t count, RandomFill kind, std::uint64_t seed)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        if (kind == RandomFill::Bytes)
            static_cast<std::uint8_t*>(p)[i] = static_cast<std::uint8_t>(probe::hash64(seed, i));
        else if (kind == RandomFill::Bf16)
            static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(probe::uniformPm1(seed, i));
        else
            static_cast<std::uint8_t*>(p)[i] = encodeE4M3(probe::uniformPm1(seed, i));
    }
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

void launchNvfp4Quantize(
    const float* x, std::size_t n, float tensorScale, std::uint8_t* packed, std::uint8_t* scales, cudaStream_t stream)
{
    std::size_t blocks = (n + 15) / 16;
    nvfp4QuantizeKernel<<<gridFor(blocks), kThreads, 0, stream>>>(x, n, tensorScale, packed, scales);
}

void launchMxfp4Quantize(const float* x, std::size_t n, std::uint8_t* packed, std::uint8_t* scales, cudaStream_t stream)
{
    std::size_t blocks = (n + 31) / 32;
    mxfp4QuantizeKernel<<<gridFor(blocks), kThreads, 0, stream>>>(x, n, packed, scales);
}

namespace {

// Packed codes are read 32 bits at a time and BF16 written 16 bytes at a time.
cudaError_t checkDequantize(const void* packed, std::size_t n, const void* out)
{
    if (reinterpret_cast<std::uintptr_t>(packed) % 4 != 0 || reinterpret_cast<std::uintptr_t>(out) % 16 != 0)
        return cudaErrorMisalignedAddress;
    return n == 0 ? cudaErrorInvalidValue : cudaSuccess;
}

} // namespace

cudaError_t launchRandomFill(void* p, std::size_t count, RandomFill kind, std::uint64_t seed, cudaStream_t stream)
{
    if (count == 0)
        return cudaSuccess;
    randomFillKernel<<<gridFor(count) < 8192u ? gridFor(count) : 8192u, kThreads, 0, stream>>>(p, count, kind, seed);
    return cudaGetLastError();
}

cudaError_t launchNvfp4Dequantize(const std::uint8_t* packed, const std::uint8_t* scales, float tensorScale,
    std::size_t n, __nv_bfloat16* out, cudaStream_t stream)
{
    if (cudaError_t e = checkDequantize(packed, n, out); e != cudaSuccess)
        return e;
    nvfp4DequantizeKernel<<<gridFor((n + 7) / 8), kThreads, 0, stream>>>(packed, scales, tensorScale, n, out);
    return cudaGetLastError();
}

cudaError_t launchMxfp4Dequantize(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t n, __nv_bfloat16* out, cudaStream_t stream)
{
    if (cudaError_t e = checkDequantize(packed, n, out); e != cudaSuccess)
        return e;
    mxfp4DequantizeKernel<<<gridFor((n + 7) / 8), kThreads, 0, stream>>>(packed, scales, n, out);
    return cudaGetLastError();
}

} // namespace paretoscope::cuda
