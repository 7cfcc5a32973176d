#include "core/import/formats/evaluationmapper.h"

#include <cmath>

#include "core/import/formats/fieldrules.h"
#include "core/model/asciitext.h"

namespace paretoscope {
namespace {

Status setText(std::string_view key, const FieldValue& v, std::string& out, bool lowerCase, bool& seen)
{
    auto t = fields::text(key, v);
    if (!t)
        return Error { t.error() };
    out = t->value_or(std::string());
    if (lowerCase)
        out = asciiLower(out);
    seen = !out.empty();
    return ok();
}

Status setFlag(std::string_view key, const FieldValue& v, bool& out)
{
    auto b = fields::flag(key, v);
    if (!b)
        return Error { b.error() };
    out = b->value_or(false);
    return ok();
}

} // namespace

void EvaluationMapper::begin()
{
    m_r = EvaluationRecord {};
    m_multinode = false;
    m_numPrefill = m_numDecode = 0;
    m_seenHardware = m_seenModel = m_seenEngine = m_seenPrecision = m_seenTask = m_seenDate = false;
}

Status EvaluationMapper::field(std::string_view key, const FieldValue& v)
{
    if (key == "hardware")
        return setText(key, v, m_r.hardware, true, m_seenHardware);
    if (key == "model")
        return setText(key, v, m_r.model, false, m_seenModel);
    if (key == "framework")
        return setText(key, v, m_r.engine, true, m_seenEngine);
    if (key == "precision")
        return setText(key, v, m_r.precision, true, m_seenPrecision);
    if (key == "task")
        return setText(key, v, m_r.task, true, m_seenTask);
    if (key == "spec_method") {
        bool seen = false;
        return setText(key, v, m_r.specDecoding, true, seen);
    }
    if (key == "date") {
        if (auto st = setText(key, v, m_r.date, false, m_seenDate); !st)
            return st;
        auto date = fields::checkedDate(key, m_r.date);
        if (!date)
            return Error { date.error() };
        m_r.date = std::move(*date);
        return ok();
    }
    if (key == "run_url") {
        bool seen = false;
        return setText(key, v, m_r.runUrl, false, seen);
    }
    if (key == "disagg")
        return setFlag(key, v, m_r.disaggregated);
    if (key == "is_multinode")
        return setFlag(key, v, m_multinode);
    if (key == "decode_dp_attention")
        return setFlag(key, v, m_r.dpAttention);
    if (key == "prefill_dp_attention")
        return setFlag(key, v, m_r.prefillDpAttention);
    if (key == "decode_tp")
        return fields::assignCount(key, v, m_r.tp);
    if (key == "decode_ep")
        return fields::assignCount(key, v, m_r.ep);
    if (key == "prefill_tp")
        return fields::assignCount(key, v, m_r.prefillTp);
    if (key == "prefill_ep")
        return fields::assignCount(key, v, m_r.prefillEp);
    if (key == "num_prefill_gpu")
        return fields::assignCount(key, v, m_numPrefill);
    if (key == "num_decode_gpu")
        return fields::assignCount(key, v, m_numDecode);
    if (key == "conc")
        return fields::assignCount(key, v, m_r.concurrency);
    if (key == "metrics.n_eff") {
        int n = 0;
        if (auto st = fields::assignCount(key, v, n); !st)
            return st;
        m_r.questions = n;
        return ok();
    }
    if (key == "metrics.em_strict")
        return fields::assignFraction(key, v, m_r.emStrict, false);
    if (key == "metrics.em_strict_se")
        return fields::assignFraction(key, v, m_r.emStrictSe, true);
    if (key == "metrics.em_flexible")
        return fields::assignFraction(key, v, m_r.emFlexible, false);
    if (key == "metrics.em_flexible_se")
        return fields::assignFraction(key, v, m_r.emFlexibleSe, true);
    if (key == "metrics.score")
        return fields::assignFraction(key, v, m_r.score, false);
    if (key == "metrics.score_se")
        return fields::assignFraction(key, v, m_r.scoreSe, true);
    return ok(); // id, config_id, timestamp, workers ...: sources add fields
}

Result<RunRecord> EvaluationMapper::finish()
{
    return Error { "an evaluation row, not a benchmark run" };
}

Result<EvaluationRecord> EvaluationMapper::finishEvaluation()
{
    std::string missing;
    for (const auto& [name, seen] : { std::pair { "hardware", m_seenHardware }, std::pair { "model", m_seenModel },
             std::pair { "framework", m_seenEngine }, std::pair { "precision", m_seenPrecision },
             std::pair { "task", m_seenTask }, std::pair { "date", m_seenDate } })
        if (!seen)
            missing += (missing.empty() ? "'" : ", '") + std::string(name) + "'";
    if (!missing.empty())
        return Error { "field " + missing + ": missing (required)" };
    if (!m_r.emStrict && !m_r.emFlexible && !m_r.score)
        return Error { "field 'metrics.em_strict', 'metrics.em_flexible' or 'metrics.score': missing (an evaluation "
                       "needs one)" };
    if (m_r.specDecoding.empty())
        m_r.specDecoding = "none";
    // InferenceX's evaluation rows say disagg: true of single-node configurations whose prefill and decode sides are
    // one and the same (457 of the 531 recorded rows, plain SGLang and vLLM among them): a configuration is
    // disaggregated when it spans nodes, or when its two sides differ
    const bool sidesDiffer = m_r.prefillTp != m_r.tp || m_r.prefillEp != m_r.ep
        || m_r.prefillDpAttention != m_r.dpAttention || m_numPrefill != m_numDecode;
    m_r.disaggregated = m_multinode || (m_r.disaggregated && sidesDiffer);
    // GPUs as the benchmark rows count them (inferencexmappers.cpp): a disaggregated configuration its prefill plus
    // decode GPUs; an aggregated one its tp (num_*_gpu there hold tp x ep), and its prefill side is its one side
    if (m_r.disaggregated) {
        m_r.gpus = m_numPrefill + m_numDecode;
    } else {
        m_r.gpus = m_r.tp;
        m_r.prefillTp = m_r.tp;
        m_r.prefillEp = m_r.ep;
        m_r.prefillDpAttention = m_r.dpAttention;
    }
    return std::move(m_r);
}

} // namespace paretoscope
