#include "core/import/formats/evaluationschema.h"

#include <algorithm>
#include <array>

#include "core/import/formats/fieldrules.h"
#include "core/model/asciitext.h"

namespace paretoscope {
namespace {

using Record = EvaluationRecord;

template <std::string Record::*M, bool Lower = false>
Status setText(Record& r, std::string_view key, const FieldValue& v)
{
    auto t = fields::text(key, v);
    if (!t)
        return Error { t.error() };
    r.*M = *t ? (Lower ? asciiLower(**t) : **t) : std::string();
    return ok();
}
template <int Record::*M> Status setInt(Record& r, std::string_view key, const FieldValue& v)
{
    return fields::assignCount(key, v, r.*M);
}
template <bool Record::*M> Status setBool(Record& r, std::string_view key, const FieldValue& v)
{
    auto b = fields::flag(key, v);
    if (!b)
        return Error { b.error() };
    r.*M = b->value_or(false);
    return ok();
}
template <std::optional<double> Record::*M, bool ErrorOfIt>
Status setFraction(Record& r, std::string_view key, const FieldValue& v)
{
    return fields::assignFraction(key, v, r.*M, ErrorOfIt);
}
Status setQuestions(Record& r, std::string_view key, const FieldValue& v)
{
    auto n = fields::count(key, v);
    if (!n)
        return Error { n.error() };
    r.questions = n->value_or(0);
    return ok();
}
Status setDate(Record& r, std::string_view key, const FieldValue& v)
{
    if (auto st = setText<&Record::date>(r, key, v); !st)
        return st;
    auto date = fields::checkedDate(key, r.date);
    if (!date)
        return Error { date.error() };
    r.date = std::move(*date);
    return ok();
}

template <std::string Record::*M> CellValue getText(const Record& r)
{
    return (r.*M).empty() ? CellValue() : CellValue(r.*M);
}
template <int Record::*M> CellValue getInt(const Record& r)
{
    return r.*M == 0 ? CellValue() : CellValue(static_cast<long long>(r.*M));
}
template <bool Record::*M> CellValue getBool(const Record& r)
{
    return CellValue(r.*M);
}
template <std::optional<double> Record::*M> CellValue getReal(const Record& r)
{
    return r.*M ? CellValue(*(r.*M)) : CellValue();
}
CellValue getQuestions(const Record& r)
{
    return r.questions == 0 ? CellValue() : CellValue(static_cast<long long>(r.questions));
}

const std::array kEvaluationColumns {
    EvaluationColumn { "model", getText<&Record::model>, setText<&Record::model> },
    EvaluationColumn { "hardware", getText<&Record::hardware>, setText<&Record::hardware, true> },
    EvaluationColumn { "engine", getText<&Record::engine>, setText<&Record::engine, true> },
    EvaluationColumn { "precision", getText<&Record::precision>, setText<&Record::precision, true> },
    EvaluationColumn { "spec_decoding", getText<&Record::specDecoding>, setText<&Record::specDecoding, true> },
    EvaluationColumn { "disaggregated", getBool<&Record::disaggregated>, setBool<&Record::disaggregated> },
    EvaluationColumn { "tp", getInt<&Record::tp>, setInt<&Record::tp> },
    EvaluationColumn { "ep", getInt<&Record::ep>, setInt<&Record::ep> },
    EvaluationColumn { "dp_attention", getBool<&Record::dpAttention>, setBool<&Record::dpAttention> },
    EvaluationColumn { "prefill_tp", getInt<&Record::prefillTp>, setInt<&Record::prefillTp> },
    EvaluationColumn { "prefill_ep", getInt<&Record::prefillEp>, setInt<&Record::prefillEp> },
    EvaluationColumn {
        "prefill_dp_attention", getBool<&Record::prefillDpAttention>, setBool<&Record::prefillDpAttention> },
    EvaluationColumn { "gpus", getInt<&Record::gpus>, setInt<&Record::gpus> },
    EvaluationColumn { "concurrency", getInt<&Record::concurrency>, setInt<&Record::concurrency> },
    EvaluationColumn { "task", getText<&Record::task>, setText<&Record::task, true> },
    EvaluationColumn { "em_strict", getReal<&Record::emStrict>, setFraction<&Record::emStrict, false> },
    EvaluationColumn { "em_strict_se", getReal<&Record::emStrictSe>, setFraction<&Record::emStrictSe, true> },
    EvaluationColumn { "em_flexible", getReal<&Record::emFlexible>, setFraction<&Record::emFlexible, false> },
    EvaluationColumn { "em_flexible_se", getReal<&Record::emFlexibleSe>, setFraction<&Record::emFlexibleSe, true> },
    EvaluationColumn { "score", getReal<&Record::score>, setFraction<&Record::score, false> },
    EvaluationColumn { "score_se", getReal<&Record::scoreSe>, setFraction<&Record::scoreSe, true> },
    EvaluationColumn { "questions", getQuestions, setQuestions },
    EvaluationColumn { "date", getText<&Record::date>, setDate },
    EvaluationColumn { "run_url", getText<&Record::runUrl>, setText<&Record::runUrl> },
};

class ParetoscopeEvaluationMapper final : public RecordMapper {
public:
    void begin() override { m_r = EvaluationRecord {}; }

    Status field(std::string_view key, const FieldValue& v) override
    {
        if (key == "schema") { // a JSON record says what it is; a run record among evaluations is refused here
            auto t = fields::text(key, v);
            if (!t)
                return Error { t.error() };
            if (t->value_or(std::string()) != kEvaluationSchema)
                return Error { "field 'schema': '" + t->value_or(std::string()).substr(0, 64) + "', expected '"
                    + std::string(kEvaluationSchema) + "'" };
            return ok();
        }
        for (const EvaluationColumn& c : kEvaluationColumns)
            if (c.name == key)
                return c.set(m_r, key, v);
        return ok(); // evaluation_id, and columns a later version adds
    }

    Result<RunRecord> finish() override { return Error { "an evaluation record, not a benchmark run" }; }

    bool holdsEvaluations() const override { return true; }

    Result<EvaluationRecord> finishEvaluation() override
    {
        std::string missing;
        for (const auto& [name, value] : { std::pair { "model", &m_r.model }, std::pair { "hardware", &m_r.hardware },
                 std::pair { "engine", &m_r.engine }, std::pair { "precision", &m_r.precision },
                 std::pair { "task", &m_r.task }, std::pair { "date", &m_r.date } })
            if (value->empty())
                missing += (missing.empty() ? "'" : ", '") + std::string(name) + "'";
        if (!missing.empty())
            return Error { "field " + missing + ": missing (required)" };
        if (!m_r.emStrict && !m_r.emFlexible && !m_r.score)
            return Error { "field 'em_strict', 'em_flexible' or 'score': missing (an evaluation needs one)" };
        if (m_r.specDecoding.empty())
            m_r.specDecoding = "none";
        return std::move(m_r);
    }

private:
    EvaluationRecord m_r;
};

bool hasColumn(const std::vector<std::string>& keys, std::string_view k)
{
    return std::find(keys.begin(), keys.end(), k) != keys.end();
}

} // namespace

std::span<const EvaluationColumn> evaluationColumns()
{
    return kEvaluationColumns;
}

bool isEvaluationCsvHeader(const std::vector<std::string>& header)
{
    return hasColumn(header, "model") && hasColumn(header, "hardware") && hasColumn(header, "task")
        && (hasColumn(header, "em_strict") || hasColumn(header, "em_flexible") || hasColumn(header, "score"));
}

std::unique_ptr<RecordMapper> makeParetoscopeEvaluationMapper()
{
    return std::make_unique<ParetoscopeEvaluationMapper>();
}

} // namespace paretoscope
