// The HIP side of paretoscope-probe: the MXFP4 dequantize kernel checked exactly and the BF16 GEMM kernel within
// tolerance against the CPU reference, then HBM copy bandwidth, dequantize bandwidth and the GEMM rate, each the median
// of many runs after warm-up, timed with events. Every HIP call is checked and a failure names it.
#include "hipprobe.h"

#include "kernels/probejson.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <hip/hip_runtime_api.h>
#include <random>
#include <vector>

#include "core/fp4/fp4codec.h"
#include "hipdevicemath.h"
#include "hipkernels.h"
#include "kernels/probecheck.h"

namespace paretoscope::hip {

namespace {

using math::bf16Bits;
using probe::bf16Value;
using probe::Json;
using probe::randomNormal;

struct Failure {
    std::string what;
};

void check(hipError_t e, const char* call)
{
    if (e != hipSuccess)
        throw Failure { std::string(call) + ": " + hipGetErrorString(e) };
}

#define CK(call) check((call), #call)

template <typename T> struct DeviceBuffer {
    T* p = nullptr;
    std::size_t n = 0;
    explicit DeviceBuffer(std::size_t count)
        : n(count)
    {
        CK(hipMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(count, 1) * sizeof(T)));
    }
    ~DeviceBuffer() { (void)hipFree(p); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    std::size_t bytes() const { return n * sizeof(T); }
};

struct Events {
    hipEvent_t a = nullptr, b = nullptr;
    Events()
    {
        CK(hipEventCreate(&a));
        CK(hipEventCreate(&b));
    }
    ~Events()
    {
        (void)hipEventDestroy(a);
        (void)hipEventDestroy(b);
    }
};

// Median of `runs` timings (ms) of `work` after `warmups`, on one stream with events.
template <typename F> double medianMs(int warmups, int runs, hipStream_t stream, F&& work)
{
    Events ev;
    for (int i = 0; i < warmups; ++i)
        work();
    CK(hipStreamSynchronize(stream));
    std::vector<float> ms;
    for (int i = 0; i < runs; ++i) {
        CK(hipEventRecord(ev.a, stream));
        work();
        CK(hipEventRecord(ev.b, stream));
        CK(hipEventSynchronize(ev.b));
        float t = 0;
        CK(hipEventElapsedTime(&t, ev.a, ev.b));
        ms.push_back(t);
    }
    return probe::medianOf(ms);
}

Json dequantizeCheck()
{
    const std::size_t n = std::size_t(1) << 20;
    std::vector<float> host = randomNormal(n, 1, 3.0f);
    host[5] = 0; // a few edge values among the random ones
    host[77] = 1e-12f;
    host[300] = 1e30f;
    fp4::Mxfp4Tensor ref = fp4::quantizeMxfp4(host);
    DeviceBuffer<std::uint8_t> packed(n / 2), scales(n / 32);
    DeviceBuffer<std::uint16_t> out(n);
    CK(hipMemcpy(packed.p, ref.packed.data(), packed.bytes(), hipMemcpyHostToDevice));
    CK(hipMemcpy(scales.p, ref.blockScales.data(), scales.bytes(), hipMemcpyHostToDevice));
    CK(launchMxfp4Dequantize(packed.p, scales.p, n, out.p, nullptr));
    std::vector<std::uint16_t> got(n);
    CK(hipMemcpy(got.data(), out.p, out.bytes(), hipMemcpyDeviceToHost));
    std::vector<float> expected = fp4::dequantizeMxfp4(ref);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i)
        bad += got[i] != bf16Bits(expected[i]);
    // a count that is not a multiple of 32 is refused, not left partly unwritten
    const bool tailRefused = launchMxfp4Dequantize(packed.p, scales.p, n - 3, out.p, nullptr) == hipErrorInvalidValue;
    return { { "values", n }, { "mismatched_values", bad }, { "partial_block_refused", tailRefused },
        { "pass", bad == 0 && tailRefused } };
}

Json bandwidth(const ProbeOptions& o, hipStream_t s)
{
    Json out;
    const std::size_t bytes = o.bandwidthBytes;
    DeviceBuffer<std::uint8_t> a(bytes), b(bytes);
    launchRandomFill(a.p, bytes, false, 21, s); // random codes and scales: lanes diverge as on real weights
    CK(hipGetLastError());
    double ms
        = medianMs(o.warmups, o.runs, s, [&] { CK(hipMemcpyAsync(b.p, a.p, bytes, hipMemcpyDeviceToDevice, s)); });
    const double copy = 2.0 * double(bytes) / (ms * 1e-3); // read and written
    out["copy_bytes_per_s"] = copy;
    // dequantize: packed values and scales read from a, BF16 written to b (n values of 2 bytes fill it)
    const std::size_t n = bytes / 2 / 32 * 32;
    double mxMs = medianMs(o.warmups, o.runs, s,
        [&] { CK(launchMxfp4Dequantize(a.p, a.p + n / 2, n, reinterpret_cast<std::uint16_t*>(b.p), s)); });
    const double mxBytes = double(n) / 2 + double(n) / 32 + 2.0 * double(n);
    out["mxfp4_dequantize_bytes_per_s"] = mxBytes / (mxMs * 1e-3);
    out["mxfp4_dequantize_share_of_copy"] = mxBytes / (mxMs * 1e-3) / copy;
    return out;
}

// BF16 GEMM: a check of a 256 x 256 x 256 product on random data against a double-precision reference of the same
// (BF16-rounded) inputs, then the rate at gemmSize.
Json gemm(const ProbeOptions& o, hipStream_t s)
{
    auto prepare = [](std::size_t count, unsigned seed, std::vector<std::uint16_t>& bits, std::vector<double>& value) {
        std::vector<float> x = randomNormal(count, seed, 1.0f);
        bits.resize(count);
        value.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            bits[i] = bf16Bits(x[i]);
            value[i] = bf16Value(bits[i]);
        }
    };
    Json out;
    {
        const int m = 256, n = 256, k = 256;
        std::vector<std::uint16_t> ha, hb;
        std::vector<double> va, vb;
        prepare(std::size_t(m) * k, 11, ha, va);
        prepare(std::size_t(n) * k, 12, hb, vb);
        DeviceBuffer<std::uint16_t> da(ha.size()), db(hb.size()), dd(std::size_t(m) * n);
        CK(hipMemcpy(da.p, ha.data(), da.bytes(), hipMemcpyHostToDevice));
        CK(hipMemcpy(db.p, hb.data(), db.bytes(), hipMemcpyHostToDevice));
        CK(hipMemset(dd.p, 0, dd.bytes()));
        launchBf16Gemm(da.p, db.p, dd.p, m, n, k, s);
        CK(hipGetLastError());
        CK(hipStreamSynchronize(s));
        std::vector<std::uint16_t> got(std::size_t(m) * n);
        CK(hipMemcpy(got.data(), dd.p, dd.bytes(), hipMemcpyDeviceToHost));
        out = probe::checkBf16Product(va, vb, got, m, n, k, 1.0);
    }
    const int size = std::max(128, o.gemmSize / 128 * 128);
    DeviceBuffer<std::uint16_t> a(std::size_t(size) * size), b(std::size_t(size) * size), d(std::size_t(size) * size);
    // random on the device: constant inputs flatter the rate, and no host copy is needed
    launchRandomFill(a.p, a.n, true, 31, s);
    launchRandomFill(b.p, b.n, true, 32, s);
    CK(hipGetLastError());
    double ms = medianMs(o.warmups, o.runs, s, [&] {
        launchBf16Gemm(a.p, b.p, d.p, size, size, size, s);
        CK(hipGetLastError());
    });
    out["m_n_k"] = size;
    out["flops_per_s"] = 2.0 * double(size) * size * size / (ms * 1e-3);
    out["kernel"] = "paretoscope MFMA 32x32x8 BF16, 128 x 128 tiles (not a vendor library: a lower bound of the rate)";
    return out;
}

} // namespace

Result<std::string> runProbe(const ProbeOptions& o)
{
    int count = 0;
    if (hipError_t e = hipGetDeviceCount(&count); e != hipSuccess || count == 0)
        return Error { std::string("no HIP device (hipGetDeviceCount: ")
            + (e == hipSuccess ? "0 devices" : hipGetErrorString(e)) + ")" };
    if (o.device < 0 || o.device >= count)
        return Error { "no HIP device " + std::to_string(o.device) + " (" + std::to_string(count) + " found)" };
    try {
        CK(hipSetDevice(o.device));
        hipDeviceProp_t p {};
        CK(hipGetDeviceProperties(&p, o.device));
        Json j;
        j["device"] = { { "name", p.name }, { "architecture", p.gcnArchName }, { "memory_bytes", p.totalGlobalMem },
            { "compute_units", p.multiProcessorCount } };
        hipStream_t s;
        CK(hipStreamCreate(&s));
        // Each section on its own: a failure becomes {"error": ...} in that section, the others are kept.
        auto section = [&](auto&& work) -> Json {
            try {
                return work();
            } catch (const Failure& f) {
                (void)hipGetLastError(); // clear a non-sticky error so the next section starts clean
                return { { "error", f.what } };
            }
        };
        j["checks"]["mxfp4_dequantize"] = section([&] { return dequantizeCheck(); });
        j["bandwidth"] = section([&] { return bandwidth(o, s); });
        j["gemm"]["bf16"] = section([&] { return gemm(o, s); });
        j["gemm"]["fp4"] = { { "skipped",
            "CDNA has no FP4 matrix unit: FP4 weights are dequantized (mxfp4_dequantize) and multiplied in BF16" } };
        CK(hipStreamDestroy(s));
        return j.dump(2);
    } catch (const Failure& f) {
        return Error { f.what };
    }
}

} // namespace paretoscope::hip
