// HIP kernels for AMD Instinct GPUs: MXFP4 dequantize to BF16, and a BF16 GEMM on the matrix cores. Built for gfx90a
// and gfx940 by Debian's HIP 5.2, for gfx942 (MI325X) with CMAKE_HIP_ARCHITECTURES=gfx942 where ROCm 6 is installed.
// hip_runtime.h first: it defines __host__ / __device__ and the vector types the project's headers use
#include <hip/hip_runtime.h>

#include "hipdevicemath.h"
#include "hipkernels.h"
#include "kernels/devicerandom.h"

namespace paretoscope::hip {

namespace {

using namespace math;

constexpr int kThreads = 256;
constexpr int kPad = 4; // LDS rows padded against bank conflicts; rows stay 8-byte aligned

// One thread per block: 32 values in 16 bytes (one 128-bit load), written as 32 BF16 in four 16-byte stores.
__global__ void mxfp4DequantizeKernel(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t blocks, std::uint16_t* out)
{
    std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (b >= blocks)
        return;
    uint4 q = reinterpret_cast<const uint4*>(packed)[b];
    unsigned words[4] = { q.x, q.y, q.z, q.w };
    unsigned res[16];
    dequantizeMxfp4Block(words, scales[b], res);
    uint4* dst = reinterpret_cast<uint4*>(out + b * 32);
#pragma unroll
    for (int k = 0; k < 4; ++k)
        dst[k] = make_uint4(res[4 * k], res[4 * k + 1], res[4 * k + 2], res[4 * k + 3]);
}

typedef float floatx16 __attribute__((ext_vector_type(16)));
typedef short shortx4 __attribute__((ext_vector_type(4)));

// The geometry is in hipdevicemath.h (and checked there on the CPU): each wave computes its 64 x 64 quarter of the
// workgroup's tile as 2 x 2 MFMA 32x32x8 products, K staged through LDS kGemmTileK at a time.
__global__ __launch_bounds__(kGemmThreads) void bf16GemmKernel(
    const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* d, int m, int k)
{
    __shared__ std::uint16_t as[kGemmTile][kGemmTileK + kPad];
    __shared__ std::uint16_t bs[kGemmTile][kGemmTileK + kPad];
    const int tid = threadIdx.x, lane = tid % 64, wave = tid / 64;
    const int tileM = blockIdx.y * kGemmTile, tileN = blockIdx.x * kGemmTile;
    floatx16 acc[2][2];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
            for (int v = 0; v < 16; ++v)
                acc[i][j][v] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += kGemmTileK) {
#pragma unroll
        for (int pass = 0; pass < 2; ++pass) {
            const int row = stageRow(tid, pass), col = stageCol(tid);
            uint4 va = *reinterpret_cast<const uint4*>(a + std::size_t(tileM + row) * k + k0 + col);
            uint4 vb = *reinterpret_cast<const uint4*>(b + std::size_t(tileN + row) * k + k0 + col);
            unsigned* da = reinterpret_cast<unsigned*>(&as[row][col]);
            unsigned* db = reinterpret_cast<unsigned*>(&bs[row][col]);
            da[0] = va.x, da[1] = va.y, da[2] = va.z, da[3] = va.w;
            db[0] = vb.x, db[1] = vb.y, db[2] = vb.z, db[3] = vb.w;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kGemmTileK; kk += 8) {
            const int kq = kk + mfmaOperandK(lane);
            shortx4 fa[2], fb[2];
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                fa[i] = *reinterpret_cast<const shortx4*>(&as[waveRow(wave) + i * 32 + mfmaOperandRow(lane)][kq]);
                fb[i] = *reinterpret_cast<const shortx4*>(&bs[waveCol(wave) + i * 32 + mfmaOperandRow(lane)][kq]);
            }
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j)
                    acc[i][j] = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(fa[i], fb[j], acc[i][j], 0, 0, 0);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            const int col = tileN + waveCol(wave) + j * 32 + mfmaResultCol(lane);
#pragma unroll
            for (int v = 0; v < 16; ++v) {
                const int row = tileM + waveRow(wave) + i * 32 + mfmaResultRow(lane, v);
                d[std::size_t(col) * m + row] = bf16Bits(acc[i][j][v]);
            }
        }
}

__global__ void randomFillKernel(void* p, std::size_t count, bool bf16, std::uint64_t seed)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        if (bf16)
            static_cast<std::uint16_t*>(p)[i] = bf16Bits(probe::uniformPm1(seed, i));
        else
            static_cast<std::uint8_t*>(p)[i] = static_cast<std::uint8_t>(probe::hash64(seed, i));
    }
}

unsigned gridFor(std::size_t items)
{
    return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

} // namespace

hipError_t launchMxfp4Dequantize(
    const std::uint8_t* packed, const std::uint8_t* scales, std::size_t n, std::uint16_t* out, hipStream_t stream)
{
    if (n == 0 || n % 32 != 0 || reinterpret_cast<std::uintptr_t>(packed) % 16 != 0
        || reinterpret_cast<std::uintptr_t>(out) % 16 != 0)
        return hipErrorInvalidValue;
    hipLaunchKernelGGL(
        mxfp4DequantizeKernel, dim3(gridFor(n / 32)), dim3(kThreads), 0, stream, packed, scales, n / 32, out);
    return hipGetLastError();
}

void launchRandomFill(void* p, std::size_t count, bool bf16, std::uint64_t seed, hipStream_t stream)
{
    if (count == 0)
        return;
    const unsigned grid = gridFor(count) < 8192u ? gridFor(count) : 8192u;
    hipLaunchKernelGGL(randomFillKernel, dim3(grid), dim3(kThreads), 0, stream, p, count, bf16, seed);
}

void launchBf16Gemm(
    const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* d, int m, int n, int k, hipStream_t stream)
{
    hipLaunchKernelGGL(
        bf16GemmKernel, dim3(n / kGemmTile, m / kGemmTile), dim3(kGemmThreads), 0, stream, a, b, d, m, k);
}

} // namespace paretoscope::hip
