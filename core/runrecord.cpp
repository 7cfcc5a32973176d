#include "runrecord.h"

#include <bit>
#include <cstring>

namespace paretoscope {
namespace {

    // FNV-1a over a canonical byte sequence; fields are separated so that ("ab","c") and ("a","bc") differ.
    class Hasher {
    public:
        void bytes(const void* data, std::size_t n)
        {
            const auto* p = static_cast<const unsigned char*>(data);
            for (std::size_t i = 0; i < n; ++i) {
                m_h ^= p[i];
                m_h *= 0x100000001b3ULL;
            }
        }
        void str(const std::string& s)
        {
            bytes(s.data(), s.size());
            bytes("\x1f", 1);
        }
        void i64(std::int64_t v) { bytes(&v, sizeof v); }
        void opt(const std::optional<double>& v)
        {
            if (!v) {
                bytes("\x00", 1);
                return;
            }
            double d = *v == 0.0 ? 0.0 : *v; // -0 and 0 hash alike
            bytes("\x01", 1);
            bytes(&d, sizeof d);
        }
        void opt(const std::optional<std::int64_t>& v)
        {
            bytes(v ? "\x01" : "\x00", 1);
            if (v)
                i64(*v);
        }
        void stats(const LatencyStats& s)
        {
            opt(s.mean);
            opt(s.median);
            opt(s.p90);
            opt(s.p99);
            opt(s.p999);
        }
        std::uint64_t value() const { return m_h; }

    private:
        std::uint64_t m_h = 0xcbf29ce484222325ULL;
    };

} // namespace

std::uint64_t contentHash(const RunRecord& r)
{
    Hasher h;
    for (const std::string* s : { &r.model, &r.hardware, &r.engine, &r.engineImage, &r.precision, &r.specDecoding,
             &r.workload, &r.runDate, &r.runUrl })
        h.str(*s);
    for (int v : { r.tp, r.ep, r.pp, int(r.dpAttention), int(r.disaggregated), r.prefillGpus, r.decodeGpus, r.gpus,
             r.isl, r.osl, r.concurrency })
        h.i64(v);
    h.opt(r.tputPerGpu);
    h.opt(r.outputTputPerGpu);
    h.opt(r.inputTputPerGpu);
    h.opt(r.interactivity);
    h.stats(r.ttft);
    h.stats(r.tpot);
    h.stats(r.itl);
    h.stats(r.e2el);
    h.opt(r.avgPowerW);
    h.opt(r.completed);
    h.opt(r.failed);
    return h.value();
}

std::string randomWorkloadName(int isl, int osl)
{
    auto len = [](int n) {
        if (n > 0 && n % 1024 == 0)
            return std::to_string(n / 1024) + "k";
        return std::to_string(n);
    };
    return "random " + len(isl) + "/" + len(osl);
}

} // namespace paretoscope
