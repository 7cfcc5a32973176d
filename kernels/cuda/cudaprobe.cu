// The CUDA side of paretoscope-probe: correctness of the FP4 kernels against the CPU reference, then HBM copy
// bandwidth, dequantize bandwidth and cuBLASLt GEMM rates, each the median of many runs after warm-up, timed with
// events. Every CUDA and cuBLASLt call is checked and a failure names it.
#include "cudaprobe.h"

#include "kernels/probejson.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <random>
#include <vector>

#include "core/fp4/fp4codec.h"
#include "fp4kernels.cuh"
#include "kernels/devicerandom.h"
#include "kernels/probecheck.h"

namespace paretoscope::cuda {

namespace {

using probe::Json;
using probe::randomNormal;

struct Failure {
    std::string what;
};

void check(cudaError_t e, const char* call)
{
    if (e != cudaSuccess)
        throw Failure { std::string(call) + ": " + cudaGetErrorString(e) };
}

void check(cublasStatus_t s, const char* call)
{
    if (s != CUBLAS_STATUS_SUCCESS)
        throw Failure { std::string(call) + ": cuBLASLt status " + std::to_string(int(s)) };
}

#define CK(call) check((call), #call)

template <typename T> struct DeviceBuffer {
    T* p = nullptr;
    std::size_t n = 0;
    explicit DeviceBuffer(std::size_t count)
        : n(count)
    {
        CK(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(count, 1) * sizeof(T)));
    }
    ~DeviceBuffer() { cudaFree(p); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    std::size_t bytes() const { return n * sizeof(T); }
};

// Median of `runs` timings (ms) of `work` after `warmups`, on one stream with events.
template <typename F> double medianMs(int warmups, int runs, cudaStream_t stream, F&& work)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < warmups; ++i)
        work();
    CK(cudaStreamSynchronize(stream));
    std::vector<float> ms;
    for (int i = 0; i < runs; ++i) {
        CK(cudaEventRecord(a, stream));
        work();
        CK(cudaEventRecord(b, stream));
        CK(cudaEventSynchronize(b));
        float t = 0;
        CK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return probe::medianOf(ms);
}

std::uint16_t bf16Bits(float x)
{
    __nv_bfloat16 b = __float2bfloat16_rn(x); // host conversion: round to nearest even
    std::uint16_t bits;
    std::memcpy(&bits, &b, 2);
    return bits;
}

Json quantizeChecks(cudaStream_t s)
{
    const std::size_t n = std::size_t(1) << 20;
    std::vector<float> host = randomNormal(n, 1, 3.0f);
    host[5] = 0; // a few edge values among the random ones
    host[77] = 1e-12f;
    DeviceBuffer<float> x(n);
    CK(cudaMemcpy(x.p, host.data(), x.bytes(), cudaMemcpyHostToDevice));
    Json out;

    // NVFP4: the tensor scale from the device's own amax
    DeviceBuffer<unsigned> amax(1);
    CK(cudaMemsetAsync(amax.p, 0, sizeof(unsigned), s));
    launchAmax(x.p, n, amax.p, s);
    CK(cudaGetLastError());
    unsigned bits = 0;
    CK(cudaMemcpyAsync(&bits, amax.p, 4, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    float amaxValue;
    std::memcpy(&amaxValue, &bits, 4);
    fp4::Nvfp4Tensor ref = fp4::quantizeNvfp4(host);
    float tensorScale = amaxValue > 0 ? amaxValue / (6.0f * 448.0f) : 1.0f;
    DeviceBuffer<std::uint8_t> packed(n / 2), scales(n / 16);
    launchNvfp4Quantize(x.p, n, tensorScale, packed.p, scales.p, s);
    CK(cudaGetLastError());
    std::vector<std::uint8_t> gotPacked(n / 2), gotScales(n / 16);
    CK(cudaMemcpy(gotPacked.data(), packed.p, packed.bytes(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gotScales.data(), scales.p, scales.bytes(), cudaMemcpyDeviceToHost));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < gotPacked.size(); ++i)
        bad += gotPacked[i] != ref.packed[i];
    for (std::size_t i = 0; i < gotScales.size(); ++i)
        bad += gotScales[i] != ref.blockScales[i];
    out["nvfp4_quantize"]
        = { { "values", n }, { "mismatched_bytes", bad }, { "pass", bad == 0 && tensorScale == ref.tensorScale } };

    // NVFP4 dequantize of the reference's bytes, against the reference's values rounded to BF16
    CK(cudaMemcpy(packed.p, ref.packed.data(), packed.bytes(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(scales.p, ref.blockScales.data(), scales.bytes(), cudaMemcpyHostToDevice));
    DeviceBuffer<__nv_bfloat16> deq(n);
    CK(launchNvfp4Dequantize(packed.p, scales.p, ref.tensorScale, n, deq.p, s));
    std::vector<std::uint16_t> gotDeq(n);
    CK(cudaMemcpy(gotDeq.data(), deq.p, deq.bytes(), cudaMemcpyDeviceToHost));
    std::vector<float> refDeq = fp4::dequantizeNvfp4(ref);
    bad = 0;
    for (std::size_t i = 0; i < n; ++i)
        bad += gotDeq[i] != bf16Bits(refDeq[i]);
    out["nvfp4_dequantize"] = { { "mismatched_values", bad }, { "pass", bad == 0 } };
    // A partial last group: n - 3 values (a multiple of neither 8, 16 nor 32) are all written and nothing past them.
    auto tailCheck = [&](auto launch, const std::vector<float>& want) {
        const std::size_t tail = n - 3;
        CK(cudaMemset(deq.p, 0xFF, deq.bytes()));
        CK(launch(tail));
        CK(cudaMemcpy(gotDeq.data(), deq.p, deq.bytes(), cudaMemcpyDeviceToHost));
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i)
            wrong += gotDeq[i] != (i < tail ? bf16Bits(want[i]) : std::uint16_t(0xFFFF));
        return Json { { "values", tail }, { "mismatched_values", wrong }, { "pass", wrong == 0 } };
    };
    out["nvfp4_dequantize_tail"] = tailCheck(
        [&](std::size_t m) { return launchNvfp4Dequantize(packed.p, scales.p, ref.tensorScale, m, deq.p, s); }, refDeq);

    // MXFP4 both ways
    fp4::Mxfp4Tensor mref = fp4::quantizeMxfp4(host);
    DeviceBuffer<std::uint8_t> mscales(n / 32);
    launchMxfp4Quantize(x.p, n, packed.p, mscales.p, s);
    CK(cudaGetLastError());
    std::vector<std::uint8_t> gotM(n / 32);
    CK(cudaMemcpy(gotPacked.data(), packed.p, packed.bytes(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gotM.data(), mscales.p, mscales.bytes(), cudaMemcpyDeviceToHost));
    bad = 0;
    for (std::size_t i = 0; i < gotPacked.size(); ++i)
        bad += gotPacked[i] != mref.packed[i];
    for (std::size_t i = 0; i < gotM.size(); ++i)
        bad += gotM[i] != mref.blockScales[i];
    out["mxfp4_quantize"] = { { "values", n }, { "mismatched_bytes", bad }, { "pass", bad == 0 } };
    CK(launchMxfp4Dequantize(packed.p, mscales.p, n, deq.p, s));
    CK(cudaMemcpy(gotDeq.data(), deq.p, deq.bytes(), cudaMemcpyDeviceToHost));
    std::vector<float> mrefDeq = fp4::dequantizeMxfp4(mref);
    bad = 0;
    for (std::size_t i = 0; i < n; ++i)
        bad += gotDeq[i] != bf16Bits(mrefDeq[i]);
    out["mxfp4_dequantize"] = { { "mismatched_values", bad }, { "pass", bad == 0 } };
    out["mxfp4_dequantize_tail"]
        = tailCheck([&](std::size_t m) { return launchMxfp4Dequantize(packed.p, mscales.p, m, deq.p, s); }, mrefDeq);
    return out;
}

Json bandwidth(const ProbeOptions& o, cudaStream_t s)
{
    Json out;
    std::size_t bytes = o.bandwidthBytes;
    DeviceBuffer<std::uint8_t> a(bytes), b(bytes);
    CK(launchRandomFill(a.p, bytes, RandomFill::Bytes, 21, s)); // random codes and scales: lanes diverge as on weights
    double ms
        = medianMs(o.warmups, o.runs, s, [&] { CK(cudaMemcpyAsync(b.p, a.p, bytes, cudaMemcpyDeviceToDevice, s)); });
    double copy = 2.0 * double(bytes) / (ms * 1e-3); // read and written
    out["copy_bytes_per_s"] = copy;
    // dequantize: the packed values and scales read, BF16 written
    const std::size_t n = bytes / 4 * 2; // values whose BF16 output is half the copy buffer... sized to fit in b
    DeviceBuffer<__nv_bfloat16> outBuf(n);
    double nvMs
        = medianMs(o.warmups, o.runs, s, [&] { CK(launchNvfp4Dequantize(a.p, a.p + n / 2, 1.0f, n, outBuf.p, s)); });
    double nvBytes = double(n) / 2 + double(n) / 16 + 2.0 * double(n);
    double mxMs = medianMs(o.warmups, o.runs, s, [&] { CK(launchMxfp4Dequantize(a.p, a.p + n / 2, n, outBuf.p, s)); });
    double mxBytes = double(n) / 2 + double(n) / 32 + 2.0 * double(n);
    out["nvfp4_dequantize_bytes_per_s"] = nvBytes / (nvMs * 1e-3);
    out["nvfp4_dequantize_share_of_copy"] = nvBytes / (nvMs * 1e-3) / copy;
    out["mxfp4_dequantize_bytes_per_s"] = mxBytes / (mxMs * 1e-3);
    out["mxfp4_dequantize_share_of_copy"] = mxBytes / (mxMs * 1e-3) / copy;
    return out;
}

enum class GemmKind { Bf16, Fp8, Fp4 };

// D (BF16, M x N) = op(A) x B with A stored K x M (transposed, "TN": what Blackwell's block-scaled FP4 requires)
// and B K x N, column-major, FP32 accumulation. Returns FLOP/s (median), and checks a small product on random data
// against a double-precision reference of the same (converted) inputs.
Json gemm(GemmKind kind, const ProbeOptions& o, cudaStream_t s, cublasLtHandle_t lt)
{
    auto run = [&](int m, int n, int k, bool verify) -> Json {
        cudaDataType_t abType = kind == GemmKind::Bf16 ? CUDA_R_16BF
            : kind == GemmKind::Fp8                    ? CUDA_R_8F_E4M3
                                                       : CUDA_R_4F_E2M1;
        std::size_t aBytes
            = kind == GemmKind::Fp4 ? std::size_t(m) * k / 2 : std::size_t(m) * k * (kind == GemmKind::Bf16 ? 2 : 1);
        std::size_t bBytes
            = kind == GemmKind::Fp4 ? std::size_t(n) * k / 2 : std::size_t(n) * k * (kind == GemmKind::Bf16 ? 2 : 1);
        DeviceBuffer<std::uint8_t> da(aBytes), db(bBytes);
        DeviceBuffer<__nv_bfloat16> dd(std::size_t(m) * n);
        // The verified product's inputs are made on the host with their exact values (in double) for the reference;
        // the timed one's on the device, random (constant data flatters the rate), with no host copy at all.
        std::vector<double> va, vb;
        std::vector<std::uint8_t> hsa, hsb; // FP4 block scales of the verified product
        if (verify) {
            std::vector<float> ha = randomNormal(std::size_t(m) * k, 11, 1.0f),
                               hb = randomNormal(std::size_t(n) * k, 12, 1.0f);
            std::vector<std::uint8_t> ra(aBytes), rb(bBytes);
            va.resize(ha.size());
            vb.resize(hb.size());
            // FP4: the block scales vary (0.5, 1, 2 or 4 by a hash of the block) and are written in cuBLAS's tiled
            // layout, so a misplaced scale shows in the product; values are doubled onto the E2M1 grid, alpha 1/4
            // takes it back.
            hsa.assign(probe::vec16ScaleBytes(m, k), 0x38);
            hsb.assign(probe::vec16ScaleBytes(n, k), 0x38);
            auto convert = [&](const std::vector<float>& src, std::vector<std::uint8_t>& raw, std::vector<double>& val,
                               std::vector<std::uint8_t>& scales, std::uint64_t seed) {
                for (std::size_t i = 0; i < src.size(); ++i) {
                    if (kind == GemmKind::Bf16) {
                        std::uint16_t b = bf16Bits(src[i]);
                        std::memcpy(&raw[2 * i], &b, 2);
                        std::uint32_t f = std::uint32_t(b) << 16;
                        float back;
                        std::memcpy(&back, &f, 4);
                        val[i] = back;
                    } else if (kind == GemmKind::Fp8) {
                        raw[i] = fp4::encodeE4M3(src[i]);
                        val[i] = fp4::decodeE4M3(raw[i]);
                    } else {
                        const std::size_t row = i / k, block = i % k / 16;
                        const std::uint8_t scale = std::uint8_t(0x30 + 8 * (probe::hash64(seed, row * k + block) % 4));
                        scales[probe::vec16ScaleOffset(row, block, k)] = scale;
                        std::uint8_t c = fp4::encodeE2M1(src[i] * 2);
                        raw[i / 2] = i % 2 == 0 ? std::uint8_t((raw[i / 2] & 0xF0) | c)
                                                : std::uint8_t((raw[i / 2] & 0x0F) | (c << 4));
                        val[i] = double(fp4::decodeE2M1(c)) * fp4::decodeE4M3(scale);
                    }
                }
            };
            convert(ha, ra, va, hsa, 41);
            convert(hb, rb, vb, hsb, 42);
            CK(cudaMemcpy(da.p, ra.data(), aBytes, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(db.p, rb.data(), bBytes, cudaMemcpyHostToDevice));
        } else {
            const RandomFill fill = kind == GemmKind::Bf16 ? RandomFill::Bf16
                : kind == GemmKind::Fp8                    ? RandomFill::E4m3
                                                           : RandomFill::Bytes;
            const std::size_t per = kind == GemmKind::Bf16 ? 2 : 1;
            CK(launchRandomFill(da.p, aBytes / per, fill, 31, s));
            CK(launchRandomFill(db.p, bBytes / per, fill, 32, s));
            CK(cudaStreamSynchronize(s));
        }
        cublasLtMatmulDesc_t desc;
        CK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
        CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
        // FP4: one UE4M3 scale per 16 values along K in cuBLAS's tiled layout: the verified product's varied ones,
        // 1.0 (0x38) for the timed one
        std::size_t scaleA = probe::vec16ScaleBytes(m, k), scaleB = probe::vec16ScaleBytes(n, k);
        DeviceBuffer<std::uint8_t> sa(kind == GemmKind::Fp4 ? scaleA : 1), sb(kind == GemmKind::Fp4 ? scaleB : 1);
        if (kind == GemmKind::Fp4) {
            if (verify) {
                CK(cudaMemcpy(sa.p, hsa.data(), scaleA, cudaMemcpyHostToDevice));
                CK(cudaMemcpy(sb.p, hsb.data(), scaleB, cudaMemcpyHostToDevice));
            } else {
                CK(cudaMemset(sa.p, 0x38, scaleA));
                CK(cudaMemset(sb.p, 0x38, scaleB));
            }
            cublasLtMatmulMatrixScale_t mode = CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3;
            CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode));
            CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode));
            CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa.p, sizeof sa.p));
            CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb.p, sizeof sb.p));
        }
        // FP8: say whether cuBLASLt accumulates in fast mode (fewer bits kept; the check's tolerance assumes so)
        std::int8_t fastAccum = 0;
        std::size_t written = 0;
        if (kind == GemmKind::Fp8)
            CK(cublasLtMatmulDescGetAttribute(
                desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fastAccum, sizeof fastAccum, &written));
        cublasLtMatrixLayout_t la, lb, ld;
        CK(cublasLtMatrixLayoutCreate(&la, abType, k, m, k));
        CK(cublasLtMatrixLayoutCreate(&lb, abType, k, n, k));
        CK(cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, m, n, m));
        cublasLtMatmulPreference_t pref;
        CK(cublasLtMatmulPreferenceCreate(&pref));
        std::size_t workspaceBytes = std::size_t(64) << 20;
        DeviceBuffer<std::uint8_t> ws(workspaceBytes);
        CK(cublasLtMatmulPreferenceSetAttribute(
            pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes, sizeof workspaceBytes));
        cublasLtMatmulHeuristicResult_t heuristic {};
        int found = 0;
        CK(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 1, &heuristic, &found));
        if (found == 0)
            throw Failure { "cublasLtMatmulAlgoGetHeuristic: no algorithm for this GEMM on this device" };
        float alpha = kind == GemmKind::Fp4 ? 0.25f : 1.0f, beta = 0; // FP4 inputs were scaled by 2 each
        auto once = [&] {
            CK(cublasLtMatmul(lt, desc, &alpha, da.p, la, db.p, lb, &beta, dd.p, ld, dd.p, ld, &heuristic.algo, ws.p,
                workspaceBytes, s));
        };
        Json r;
        if (kind == GemmKind::Fp8)
            r["fast_accum"] = fastAccum != 0;
        if (verify) {
            once();
            CK(cudaStreamSynchronize(s));
            std::vector<std::uint16_t> got(std::size_t(m) * n);
            CK(cudaMemcpy(got.data(), dd.p, dd.bytes(), cudaMemcpyDeviceToHost));
            // FP4: the inputs were doubled onto the E2M1 grid, alpha takes it back
            r = probe::checkBf16Product(va, vb, got, m, n, k, alpha,
                kind == GemmKind::Fp8 ? probe::kFp8Accumulation : probe::kFp32Accumulation);
        } else {
            double ms = medianMs(o.warmups, o.runs, s, once);
            r["m_n_k"] = m;
            r["flops_per_s"] = 2.0 * m * n * double(k) / (ms * 1e-3);
        }
        cublasLtMatmulPreferenceDestroy(pref);
        cublasLtMatrixLayoutDestroy(la);
        cublasLtMatrixLayoutDestroy(lb);
        cublasLtMatrixLayoutDestroy(ld);
        cublasLtMatmulDescDestroy(desc);
        return r;
    };
    Json out = run(256, 256, 256, true);
    Json rate = run(o.gemmSize, o.gemmSize, o.gemmSize, false);
    out.update(rate);
    return out;
}

} // namespace

Result<std::string> runProbe(const ProbeOptions& o)
{
    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0)
        return Error { std::string("no CUDA device (cudaGetDeviceCount: ")
            + (e == cudaSuccess ? "0 devices" : cudaGetErrorString(e)) + ")" };
    if (o.device < 0 || o.device >= count)
        return Error { "no CUDA device " + std::to_string(o.device) + " (" + std::to_string(count) + " found)" };
    try {
        CK(cudaSetDevice(o.device));
        cudaDeviceProp p {};
        CK(cudaGetDeviceProperties(&p, o.device));
        Json j;
        j["device"]
            = { { "name", p.name }, { "compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor) },
                  { "memory_bytes", p.totalGlobalMem }, { "multiprocessors", p.multiProcessorCount } };
        cudaStream_t s;
        CK(cudaStreamCreate(&s));
        // Each section on its own: a failure (a cuBLASLt heuristic with no algorithm, say) becomes {"error": ...}
        // in that section and the others keep what they measured.
        auto section = [&](auto&& work) -> Json {
            try {
                return work();
            } catch (const Failure& f) {
                (void)cudaGetLastError(); // clear a non-sticky error so the next section starts clean
                return { { "error", f.what } };
            }
        };
        j["checks"] = section([&] { return quantizeChecks(s); });
        j["bandwidth"] = section([&] { return bandwidth(o, s); });
        cublasLtHandle_t lt;
        CK(cublasLtCreate(&lt));
        j["gemm"]["bf16"] = section([&] { return gemm(GemmKind::Bf16, o, s, lt); });
        if (p.major * 10 + p.minor >= 89)
            j["gemm"]["fp8"] = section([&] { return gemm(GemmKind::Fp8, o, s, lt); });
        if (p.major == 10)
            j["gemm"]["fp4"] = section([&] { return gemm(GemmKind::Fp4, o, s, lt); });
        else
            j["gemm"]["fp4"] = { { "skipped",
                "block-scaled FP4 GEMM needs sm_100 or sm_103 (this is sm_" + std::to_string(p.major * 10 + p.minor)
                    + ")" } };
        cublasLtDestroy(lt);
        cudaStreamDestroy(s);
        return j.dump(2);
    } catch (const Failure& f) {
        return Error { f.what };
    }
}

} // namespace paretoscope::cuda
