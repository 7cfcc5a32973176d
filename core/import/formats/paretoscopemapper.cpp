// Paretoscope's own record format, in JSON (one object per record with "schema": "paretoscope.run/1") and CSV (one
// row per record, the same column names as the header).
#include "core/import/formats/paretoscopemapper.h"

#include <unordered_map>

#include "core/import/formats/fieldrules.h"
#include "core/import/formats/recordschema.h"

namespace paretoscope {
namespace {

class ParetoscopeMapper : public RecordMapper {
public:
    void begin() override
    {
        m_r = RunRecord {};
        m_r.specDecoding.clear();
    }

    Status field(std::string_view key, const FieldValue& v) override
    {
        static const std::unordered_map<std::string_view, const RecordColumn*> columns = [] {
            std::unordered_map<std::string_view, const RecordColumn*> m;
            for (const RecordColumn& c : recordColumns())
                m.emplace(c.name, &c);
            // unit-less spellings are accepted too
            auto alias = [&](std::string_view a, std::string_view to) { m.emplace(a, m.at(to)); };
            alias("tput_per_gpu", "tput_per_gpu_tok_s");
            alias("output_tput_per_gpu", "output_tput_per_gpu_tok_s");
            alias("input_tput_per_gpu", "input_tput_per_gpu_tok_s");
            alias("interactivity", "interactivity_tok_s_user");
            return m;
        }();
        if (key == "schema") {
            auto t = fields::text(key, v);
            if (!t)
                return Error { t.error() };
            if (*t && **t != kRecordSchema)
                return Error { "field 'schema': unsupported version \"" + **t + "\" (this build reads "
                    + std::string(kRecordSchema) + ")" };
            return ok();
        }
        auto it = columns.find(key);
        if (it == columns.end())
            return ok();
        return it->second->set(m_r, key, v);
    }

    Result<RunRecord> finish() override
    {
        std::string missing;
        auto need = [&](bool absent, const char* name) {
            if (absent)
                missing += (missing.empty() ? "'" : ", '") + std::string(name) + "'";
        };
        need(m_r.model.empty(), "model");
        need(m_r.hardware.empty(), "hardware");
        need(m_r.engine.empty(), "engine");
        need(m_r.precision.empty(), "precision");
        need(!m_r.tputPerGpu, "tput_per_gpu_tok_s");
        if (!missing.empty())
            return Error { "field " + missing + ": missing (required)" };
        if (m_r.specDecoding.empty())
            m_r.specDecoding = "none";
        if (!m_r.interactivity && m_r.tpot.median)
            m_r.interactivity = 1.0 / *m_r.tpot.median;
        if (m_r.workload.empty() && m_r.isl > 0 && m_r.osl > 0)
            m_r.workload = randomWorkloadName(m_r.isl, m_r.osl);
        if (m_r.gpus == 0 && m_r.prefillGpus > 0 && m_r.decodeGpus > 0)
            m_r.gpus = m_r.prefillGpus + m_r.decodeGpus;
        return std::move(m_r);
    }

private:
    RunRecord m_r;
};

} // namespace

std::unique_ptr<RecordMapper> makeParetoscopeMapper()
{
    return std::make_unique<ParetoscopeMapper>();
}

} // namespace paretoscope
