// Mappers for the two InferenceX shapes: the per-point aggregate record (agg_*.json, agg_bmk.json) and the rows of
// the public API (/api/v1/benchmarks). Both carry their metrics already per GPU and in seconds.
#include "core/import/formats/inferencexmappers.h"

#include <unordered_map>
#include <vector>

#include "core/import/formats/fieldrules.h"
#include "core/model/asciitext.h"

namespace paretoscope {
namespace {

enum class K {
    Hw,
    Conc,
    Model,
    Framework,
    Precision,
    Spec,
    Disagg,
    Isl,
    Osl,
    Tp,
    Ep,
    Pp,
    DpAttention,
    Image,
    NumPrefill,
    NumDecode,
    DecodeTp,
    DecodeEp,
    DecodeDpAttention,
    DecodeWorkers,
    PrefillTp,
    PrefillEp,
    PrefillDpAttention,
    PrefillWorkers,
    Pcp,
    Multinode,
    Date,
    RunUrl,
    Tput,
    OutputTput,
    InputTput,
    MedianIntvty,
    AvgPower,
    AppendOnly,
    RecipeFingerprint,
    Ignored,
};

// Keys spelled the same in both shapes.
std::unordered_map<std::string_view, K> withCommonKeys(std::initializer_list<std::pair<const std::string_view, K>> own)
{
    std::unordered_map<std::string_view, K> keys {
        { "conc", K::Conc },
        { "model", K::Model },
        { "framework", K::Framework },
        { "precision", K::Precision },
        { "disagg", K::Disagg },
        { "isl", K::Isl },
        { "osl", K::Osl },
        { "image", K::Image },
        { "num_prefill_gpu", K::NumPrefill },
        { "num_decode_gpu", K::NumDecode },
        { "decode_tp", K::DecodeTp },
        { "decode_ep", K::DecodeEp },
        { "decode_dp_attention", K::DecodeDpAttention },
        { "decode_num_workers", K::DecodeWorkers },
        { "prefill_tp", K::PrefillTp },
        { "prefill_ep", K::PrefillEp },
        { "prefill_dp_attention", K::PrefillDpAttention },
        { "prefill_num_workers", K::PrefillWorkers },
        { "pcp_size", K::Pcp },
        { "is_multinode", K::Multinode },
        { "date", K::Date },
        { "run_url", K::RunUrl },
        { "append_only", K::AppendOnly },
        { "recipe_fingerprint", K::RecipeFingerprint },
    };
    keys.insert(own);
    return keys;
}

const std::unordered_map<std::string_view, K>& aggKeys()
{
    static const auto keys = withCommonKeys({
        { "hw", K::Hw },
        { "spec_decoding", K::Spec },
        { "tp", K::Tp },
        { "ep", K::Ep },
        { "pp", K::Pp },
        { "dp_attention", K::DpAttention },
        { "tput_per_gpu", K::Tput },
        { "output_tput_per_gpu", K::OutputTput },
        { "input_tput_per_gpu", K::InputTput },
        { "median_intvty", K::MedianIntvty },
        { "avg_power_w", K::AvgPower },
    });
    return keys;
}

const std::unordered_map<std::string_view, K>& apiKeys()
{
    static const auto keys = withCommonKeys({
        { "hardware", K::Hw },
        { "spec_method", K::Spec },
        { "metrics.tput_per_gpu", K::Tput },
        { "metrics.output_tput_per_gpu", K::OutputTput },
        { "metrics.input_tput_per_gpu", K::InputTput },
        { "metrics.median_intvty", K::MedianIntvty },
        { "metrics.avg_power_w", K::AvgPower },
    });
    return keys;
}

// State shared by both shapes: what was seen, then derived in finish().
class InferenceXMapper : public RecordMapper {
public:
    InferenceXMapper(const std::unordered_map<std::string_view, K>& keys, std::string_view metricPrefix,
        const std::vector<std::string_view>& required)
        : m_keys(keys)
        , m_prefix(metricPrefix)
    {
        for (std::string_view name : required) // looked up once here, not per record
            if (auto it = m_keys.find(name); it != m_keys.end())
                m_required.emplace_back(name, it->second);
    }

    void begin() override
    {
        m_position = 0;
        m_r = RunRecord {};
        m_seen.assign(static_cast<std::size_t>(K::Ignored) + 1, false);
        m_numPrefill = m_numDecode = m_decodeTp = m_decodeEp = m_pcp = 0;
        m_decodeDp.reset();
        m_multinode = false;
        m_medianIntvty.reset();
        m_disagg = false;
        m_notes.clear();
    }

    const std::vector<std::string>& notes() const override { return m_notes; }

    bool descend(std::string_view key) const override { return !m_prefix.empty() && key == "metrics"; }

    Status field(std::string_view key, const FieldValue& v) override
    {
        const Resolved& res = resolve(key);
        if (res.latency)
            return fields::setLatency(m_r, *res.latency, key, v);
        K k = res.key;
        m_seen[static_cast<std::size_t>(k)] = v.kind != FieldValue::Kind::Null;
        switch (k) {
        case K::Hw:
            return setText(key, v, m_r.hardware, true);
        case K::Model:
            return setText(key, v, m_r.model, false);
        case K::Framework:
            return setText(key, v, m_r.engine, true);
        case K::Precision:
            return setText(key, v, m_r.precision, true);
        case K::Spec:
            return setText(key, v, m_r.specDecoding, true);
        case K::Image:
            return setText(key, v, m_r.engineImage, false);
        case K::Date: {
            std::string d;
            if (auto st = setText(key, v, d, false); !st)
                return st;
            auto date = fields::checkedDate(key, d);
            if (!date)
                return Error { date.error() };
            m_r.runDate = std::move(*date);
            return ok();
        }
        case K::RunUrl:
            return setText(key, v, m_r.runUrl, false);
        case K::AppendOnly:
            return setFlag(key, v, m_r.appendOnly);
        case K::RecipeFingerprint:
            return setText(key, v, m_r.recipeFingerprint, false);
        case K::Disagg:
            return setFlag(key, v, m_disagg);
        case K::DpAttention:
            return setFlag(key, v, m_r.dpAttention);
        case K::DecodeDpAttention: {
            bool b = false;
            if (auto st = setFlag(key, v, b); !st)
                return st;
            m_decodeDp = b;
            return ok();
        }
        case K::PrefillDpAttention:
            return setFlag(key, v, m_r.prefillDpAttention);
        case K::Multinode:
            return setFlag(key, v, m_multinode);
        case K::PrefillTp:
            return fields::assignCount(key, v, m_r.prefillTp);
        case K::PrefillEp:
            return fields::assignCount(key, v, m_r.prefillEp);
        case K::PrefillWorkers:
            return fields::assignCount(key, v, m_r.prefillWorkers);
        case K::DecodeWorkers:
            return fields::assignCount(key, v, m_r.decodeWorkers);
        case K::Pcp:
            return fields::assignCount(key, v, m_pcp);
        case K::Conc:
            return fields::assignCount(key, v, m_r.concurrency);
        case K::Isl:
            return fields::assignCount(key, v, m_r.isl);
        case K::Osl:
            return fields::assignCount(key, v, m_r.osl);
        case K::Tp:
            return fields::assignCount(key, v, m_r.tp);
        case K::Ep:
            return fields::assignCount(key, v, m_r.ep);
        case K::Pp:
            return fields::assignCount(key, v, m_r.pp);
        case K::NumPrefill:
            return fields::assignCount(key, v, m_numPrefill);
        case K::NumDecode:
            return fields::assignCount(key, v, m_numDecode);
        case K::DecodeTp:
            return fields::assignCount(key, v, m_decodeTp);
        case K::DecodeEp:
            return fields::assignCount(key, v, m_decodeEp);
        case K::Tput:
            return fields::assignPositive(key, v, m_r.tputPerGpu);
        case K::OutputTput:
            return optionalPositive(key, v, m_r.outputTputPerGpu);
        case K::InputTput:
            return optionalPositive(key, v, m_r.inputTputPerGpu);
        case K::MedianIntvty:
            return fields::assignPositive(key, v, m_medianIntvty);
        case K::AvgPower:
            return optionalPositive(key, v, m_r.avgPowerW);
        case K::Ignored:
            return ok();
        }
        return ok();
    }

    Result<RunRecord> finish() override
    {
        std::string missing;
        for (const auto& [name, key] : m_required) {
            if (!m_seen[static_cast<std::size_t>(key)])
                missing += (missing.empty() ? "'" : ", '") + std::string(name) + "'";
        }
        if (!m_r.tpot.median && !m_medianIntvty)
            missing += (missing.empty() ? "'" : ", '") + std::string(m_prefix) + "median_tpot'";
        if (!missing.empty())
            return Error { "field " + missing + ": missing (required)" };

        // GPUs as the InferenceX site counts them (docs/architecture.md section 10.1): a disaggregated run its prefill
        // plus decode GPUs, each pool workers x tp x pp x pcp where the row does not give them; a single-node run
        // tp x pp x pcp, ep never multiplying. (An API row's num_prefill_gpu / num_decode_gpu of an aggregated run
        // hold tp x ep, not a GPU count: 64 for TP8 EP8 on one 8-GPU node.) A run with no decode GPUs (8P+0D) is
        // aggregated: its one pool is the prefill side.
        const int layers = (m_r.pp > 0 ? m_r.pp : 1) * (m_pcp > 0 ? m_pcp : 1);
        const bool noDecodePool = m_seen[static_cast<std::size_t>(K::NumDecode)] && m_numDecode == 0
            && m_r.decodeWorkers == 0 && m_decodeTp == 0;
        m_r.disaggregated = (m_disagg || m_multinode) && !noDecodePool;
        if (m_r.tp == 0)
            m_r.tp = m_decodeTp;
        if (m_r.ep == 0)
            m_r.ep = m_decodeEp;
        if (m_decodeDp)
            m_r.dpAttention = *m_decodeDp;
        if ((m_disagg || m_multinode) && noDecodePool) {
            if (m_r.tp == 0)
                m_r.tp = m_r.prefillTp;
            if (m_r.ep == 0)
                m_r.ep = m_r.prefillEp;
            if (!m_decodeDp)
                m_r.dpAttention = m_r.prefillDpAttention;
        }
        if (m_r.disaggregated) {
            if (m_numPrefill == 0 && m_r.prefillWorkers > 0 && m_r.prefillTp > 0)
                m_numPrefill = m_r.prefillWorkers * m_r.prefillTp * layers;
            if (m_numDecode == 0 && m_r.decodeWorkers > 0 && m_r.tp > 0)
                m_numDecode = m_r.decodeWorkers * m_r.tp * layers;
            if (m_numPrefill == 0 || m_numDecode == 0)
                return Error { "field 'num_prefill_gpu'/'num_decode_gpu': missing (required for a disaggregated "
                               "run, unless its workers and tp are given)" };
            m_r.prefillGpus = m_numPrefill;
            m_r.decodeGpus = m_numDecode;
            m_r.gpus = m_numPrefill + m_numDecode;
        } else {
            if (m_r.tp == 0)
                return Error { "field 'tp': missing (required to count GPUs)" };
            m_r.gpus = m_r.tp * layers;
            // the prefill side and workers of an aggregated row repeat its one side
            m_r.prefillTp = m_r.prefillEp = m_r.prefillWorkers = m_r.decodeWorkers = 0;
            m_r.prefillDpAttention = false;
        }
        completeConfiguration(m_r);
        // interactivity = 1 / median TPOT; the source's median_intvty only where TPOT is absent
        m_r.interactivity = m_r.tpot.median ? std::optional<double>(1.0 / *m_r.tpot.median) : m_medianIntvty;
        if (m_r.specDecoding.empty())
            m_r.specDecoding = "none";
        if (m_workloadName.empty() || m_workloadIsl != m_r.isl || m_workloadOsl != m_r.osl) { // once per shape
            m_workloadName = randomWorkloadName(m_r.isl, m_r.osl);
            m_workloadIsl = m_r.isl;
            m_workloadOsl = m_r.osl;
        }
        m_r.workload = m_workloadName;
        return std::move(m_r);
    }

private:
    // What a key means. Records of one file list their keys in the same order, so the meaning found for the key
    // at a position is kept and reused when the next record has the same key there.
    struct Resolved {
        // user-provided: clang cannot default-construct a nested struct with member initializers while the enclosing
        // class is still incomplete (vector<pair<..., Resolved>>)
        Resolved() { } // NOLINT(modernize-use-equals-default)
        K key = K::Ignored;
        std::optional<fields::LatencyTarget> latency;
    };
    const Resolved& resolve(std::string_view key)
    {
        std::size_t pos = m_position++;
        if (pos < m_cache.size() && m_cache[pos].first == key)
            return m_cache[pos].second;
        Resolved r;
        if (auto it = m_keys.find(key); it != m_keys.end()) {
            r.key = it->second;
        } else {
            std::string_view metric = key;
            bool prefixed = m_prefix.empty() || metric.starts_with(m_prefix);
            if (prefixed) {
                metric.remove_prefix(m_prefix.size());
                r.latency = fields::latencyTarget(metric); // unknown keys stay Ignored: sources add fields
            }
        }
        if (pos >= m_cache.size())
            m_cache.resize(pos + 1);
        m_cache[pos] = { std::string(key), r };
        return m_cache[pos].second;
    }

    Status setText(std::string_view key, const FieldValue& v, std::string& out, bool lowerCase)
    {
        auto t = fields::text(key, v);
        if (!t)
            return Error { t.error() };
        if (!*t) {
            out.clear();
            return ok();
        }
        out = std::move(**t);
        if (lowerCase) // in place, as asciiLower does it
            for (char& c : out)
                if (c >= 'A' && c <= 'Z')
                    c = static_cast<char>(c - 'A' + 'a');
        return ok();
    }
    // A value the record can do without (a split of the throughput, the power): zero is left out and said, as
    // sources write 0 for "not measured"; a negative or non-numeric one still refuses the file.
    Status optionalPositive(std::string_view key, const FieldValue& v, std::optional<double>& out)
    {
        if (v.kind == FieldValue::Kind::Number && v.number == 0) {
            out.reset();
            m_notes.push_back("field '" + std::string(key) + "' is 0, left out");
            return ok();
        }
        return fields::assignPositive(key, v, out);
    }
    Status setFlag(std::string_view key, const FieldValue& v, bool& out)
    {
        auto b = fields::flag(key, v);
        if (!b)
            return Error { b.error() };
        out = b->value_or(false);
        return ok();
    }

    const std::unordered_map<std::string_view, K>& m_keys;
    std::vector<std::pair<std::string, Resolved>> m_cache;
    std::size_t m_position = 0;
    std::string_view m_prefix;
    std::vector<std::pair<std::string_view, K>> m_required;
    RunRecord m_r;
    std::vector<bool> m_seen;
    int m_numPrefill = 0, m_numDecode = 0, m_decodeTp = 0, m_decodeEp = 0, m_pcp = 0;
    std::optional<bool> m_decodeDp;
    bool m_multinode = false;
    std::optional<double> m_medianIntvty;
    bool m_disagg = false;
    std::vector<std::string> m_notes;
    std::string m_workloadName; // of the last shape met
    int m_workloadIsl = 0, m_workloadOsl = 0;
};

} // namespace

std::unique_ptr<RecordMapper> makeInferenceXAggMapper()
{
    return std::make_unique<InferenceXMapper>(aggKeys(), "",
        std::vector<std::string_view> {
            "hw", "model", "framework", "precision", "conc", "isl", "osl", "tput_per_gpu" });
}

std::unique_ptr<RecordMapper> makeInferenceXApiMapper()
{
    return std::make_unique<InferenceXMapper>(apiKeys(), "metrics.",
        std::vector<std::string_view> {
            "hardware", "model", "framework", "precision", "conc", "isl", "osl", "metrics.tput_per_gpu" });
}

} // namespace paretoscope
