#include "core/model/runrecord.h"

#include <bit>
#include <cstring>

namespace paretoscope {
namespace {

// A 64-bit word at a time (multiply and xor-shift, as in wyhash/murmur finalisers); fields are framed by their
// length or a presence byte so that ("ab","c") and ("a","bc") differ.
class Hasher {
public:
    void word(std::uint64_t w)
    {
        m_h ^= w + 0x9e3779b97f4a7c15ULL + (m_h << 6) + (m_h >> 2);
        m_h *= 0xff51afd7ed558ccdULL;
        m_h ^= m_h >> 33;
    }
    void str(const std::string& s)
    {
        word(s.size());
        std::size_t i = 0;
        for (; i + 8 <= s.size(); i += 8) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            word(w);
        }
        std::uint64_t tail = 0;
        std::memcpy(&tail, s.data() + i, s.size() - i);
        word(tail);
    }
    void i64(std::int64_t v) { word(static_cast<std::uint64_t>(v)); }
    void opt(const std::optional<double>& v)
    {
        if (!v) {
            word(0x6e756c6cULL); // "null"
            return;
        }
        double d = *v == 0.0 ? 0.0 : *v; // -0 and 0 hash alike
        word(1);
        word(std::bit_cast<std::uint64_t>(d));
    }
    void opt(const std::optional<std::int64_t>& v)
    {
        word(v ? 1 : 0x6e756c6cULL);
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
    if (!r.marked.empty()) // only when set, so that the hashes of the runs stored before marks existed still hold
        h.str(r.marked);
    if (!r.validity.empty()) // the same: runs stored before validity flags keep their hashes
        h.str(r.validity);
    if (r.appendOnly) // the same for the append-only mark and the recipe fingerprint (schema 11)
        h.i64(1);
    if (!r.recipeFingerprint.empty())
        h.str("recipe:" + r.recipeFingerprint);
    return h.value();
}

void completeConfiguration(RunRecord& r)
{
    if (!r.disaggregated || (r.prefillTp == 0 && r.prefillEp == 0 && !r.prefillDpAttention)) {
        r.prefillTp = r.tp;
        r.prefillEp = r.ep;
        r.prefillDpAttention = r.dpAttention;
    }
}

std::uint64_t seriesHash(const RunRecord& r)
{
    Hasher h;
    for (const std::string* s : { &r.model, &r.workload, &r.hardware, &r.engine, &r.precision, &r.specDecoding })
        h.str(*s);
    h.i64(r.isl);
    h.i64(r.osl);
    return h.value();
}

bool sameSeries(const RunRecord& a, const RunRecord& b)
{
    return a.isl == b.isl && a.osl == b.osl && a.model == b.model && a.workload == b.workload
        && a.hardware == b.hardware && a.engine == b.engine && a.precision == b.precision
        && a.specDecoding == b.specDecoding;
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
