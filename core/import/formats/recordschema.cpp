#include "core/import/formats/recordschema.h"

#include "core/import/formats/fieldrules.h"
#include "core/model/asciitext.h"

namespace paretoscope {
namespace {

template <std::string RunRecord::*M, bool Lower = false>
Status setText(RunRecord& r, std::string_view key, const FieldValue& v)
{
    auto t = fields::text(key, v);
    if (!t)
        return Error { t.error() };
    r.*M = *t ? (Lower ? asciiLower(**t) : **t) : std::string();
    return ok();
}
Status setRunDate(RunRecord& r, std::string_view key, const FieldValue& v)
{
    auto t = fields::text(key, v);
    if (!t)
        return Error { t.error() };
    // kept as written (a live session's carries its time: 2026-04-28T10:57:48Z), once its day is a real one
    if (auto date = fields::checkedDate(key, t->value_or(std::string())); !date)
        return Error { date.error() };
    r.runDate = t->value_or(std::string());
    return ok();
}
template <int RunRecord::*M> Status setInt(RunRecord& r, std::string_view key, const FieldValue& v)
{
    return fields::assignCount(key, v, r.*M);
}
template <bool RunRecord::*M> Status setBool(RunRecord& r, std::string_view key, const FieldValue& v)
{
    auto b = fields::flag(key, v);
    if (!b)
        return Error { b.error() };
    r.*M = b->value_or(false);
    return ok();
}
template <std::optional<double> RunRecord::*M> Status setReal(RunRecord& r, std::string_view key, const FieldValue& v)
{
    return fields::assignPositive(key, v, r.*M);
}
template <std::optional<std::int64_t> RunRecord::*M>
Status setCount(RunRecord& r, std::string_view key, const FieldValue& v)
{
    auto n = fields::count(key, v);
    if (!n)
        return Error { n.error() };
    r.*M = *n ? std::optional<std::int64_t>(**n) : std::nullopt;
    return ok();
}
template <LatencyStats RunRecord::*M, std::optional<double> LatencyStats::*S>
Status setStat(RunRecord& r, std::string_view key, const FieldValue& v)
{
    auto n = fields::positive(key, v);
    if (!n)
        return Error { n.error() };
    (r.*M).*S = *n;
    return ok();
}
Status setNote(RunRecord& r, std::string_view key, const FieldValue& v)
{
    auto t = fields::text(key, v);
    if (!t)
        return Error { t.error() };
    r.provenance.note = t->value_or(std::string());
    return ok();
}
Status ignore(RunRecord&, std::string_view, const FieldValue&)
{
    return ok();
}

template <std::string RunRecord::*M> CellValue getText(const RunRecord& r)
{
    return (r.*M).empty() ? CellValue() : CellValue(r.*M);
}
template <int RunRecord::*M> CellValue getInt(const RunRecord& r)
{
    return r.*M == 0 ? CellValue() : CellValue(static_cast<long long>(r.*M));
}
template <bool RunRecord::*M> CellValue getBool(const RunRecord& r)
{
    return CellValue(r.*M);
}
template <std::optional<double> RunRecord::*M> CellValue getReal(const RunRecord& r)
{
    return r.*M ? CellValue(*(r.*M)) : CellValue();
}
template <std::optional<std::int64_t> RunRecord::*M> CellValue getCount(const RunRecord& r)
{
    return r.*M ? CellValue(static_cast<long long>(*(r.*M))) : CellValue();
}
template <LatencyStats RunRecord::*M, std::optional<double> LatencyStats::*S> CellValue getStat(const RunRecord& r)
{
    const auto& v = (r.*M).*S;
    return v ? CellValue(*v) : CellValue();
}
// The prefill side is written for a disaggregated run only: an aggregated run's is its one side.
template <int RunRecord::*M> CellValue getPrefillInt(const RunRecord& r)
{
    return r.disaggregated ? getInt<M>(r) : CellValue();
}
CellValue getPrefillDp(const RunRecord& r)
{
    return r.disaggregated && (r.prefillTp > 0 || r.prefillEp > 0) ? CellValue(r.prefillDpAttention) : CellValue();
}
CellValue getRunStarted(const RunRecord& r)
{
    return r.runStarted > 0 ? CellValue(static_cast<long long>(r.runStarted)) : CellValue();
}
Status setRunStarted(RunRecord& r, std::string_view key, const FieldValue& v)
{
    auto n = fields::count(key, v);
    if (!n)
        return Error { n.error() };
    r.runStarted = n->value_or(0);
    return ok();
}

// Written only where set: a run is not append-only unless its source says so.
CellValue getAppendOnly(const RunRecord& r)
{
    return r.appendOnly ? CellValue(true) : CellValue();
}

CellValue getNote(const RunRecord& r)
{
    return r.provenance.note.empty() ? CellValue() : CellValue(r.provenance.note);
}
CellValue getSource(const RunRecord& r)
{
    return r.provenance.source.empty() ? CellValue() : CellValue(r.provenance.source);
}
CellValue getSha(const RunRecord& r)
{
    return r.provenance.sha256.empty() ? CellValue() : CellValue(r.provenance.sha256);
}
CellValue getFormat(const RunRecord& r)
{
    return r.provenance.format.empty() ? CellValue() : CellValue(r.provenance.format);
}

#define PS_STAT_COLUMNS(metric)                                                                                        \
    RecordColumn { #metric "_mean_s", getStat<&RunRecord::metric, &LatencyStats::mean>,                                \
        setStat<&RunRecord::metric, &LatencyStats::mean> },                                                            \
        RecordColumn { #metric "_median_s", getStat<&RunRecord::metric, &LatencyStats::median>,                        \
            setStat<&RunRecord::metric, &LatencyStats::median> },                                                      \
        RecordColumn { #metric "_p90_s", getStat<&RunRecord::metric, &LatencyStats::p90>,                              \
            setStat<&RunRecord::metric, &LatencyStats::p90> },                                                         \
        RecordColumn { #metric "_p99_s", getStat<&RunRecord::metric, &LatencyStats::p99>,                              \
            setStat<&RunRecord::metric, &LatencyStats::p99> },                                                         \
        RecordColumn                                                                                                   \
    {                                                                                                                  \
#metric "_p999_s", getStat < &RunRecord::metric, &LatencyStats::p999>, setStat < &RunRecord::metric,           \
            &LatencyStats::p999>                                                                                       \
    }

const RecordColumn kRecordColumns[] = {
    { "model", getText<&RunRecord::model>, setText<&RunRecord::model> },
    { "hardware", getText<&RunRecord::hardware>, setText<&RunRecord::hardware, true> },
    { "engine", getText<&RunRecord::engine>, setText<&RunRecord::engine, true> },
    { "engine_image", getText<&RunRecord::engineImage>, setText<&RunRecord::engineImage> },
    { "precision", getText<&RunRecord::precision>, setText<&RunRecord::precision, true> },
    { "spec_decoding", getText<&RunRecord::specDecoding>, setText<&RunRecord::specDecoding, true> },
    { "tp", getInt<&RunRecord::tp>, setInt<&RunRecord::tp> },
    { "ep", getInt<&RunRecord::ep>, setInt<&RunRecord::ep> },
    { "pp", getInt<&RunRecord::pp>, setInt<&RunRecord::pp> },
    { "dp_attention", getBool<&RunRecord::dpAttention>, setBool<&RunRecord::dpAttention> },
    { "disaggregated", getBool<&RunRecord::disaggregated>, setBool<&RunRecord::disaggregated> },
    { "prefill_tp", getPrefillInt<&RunRecord::prefillTp>, setInt<&RunRecord::prefillTp> },
    { "prefill_ep", getPrefillInt<&RunRecord::prefillEp>, setInt<&RunRecord::prefillEp> },
    { "prefill_dp_attention", getPrefillDp, setBool<&RunRecord::prefillDpAttention> },
    { "prefill_workers", getPrefillInt<&RunRecord::prefillWorkers>, setInt<&RunRecord::prefillWorkers> },
    { "decode_workers", getPrefillInt<&RunRecord::decodeWorkers>, setInt<&RunRecord::decodeWorkers> },
    { "prefill_gpus", getInt<&RunRecord::prefillGpus>, setInt<&RunRecord::prefillGpus> },
    { "decode_gpus", getInt<&RunRecord::decodeGpus>, setInt<&RunRecord::decodeGpus> },
    { "gpus", getInt<&RunRecord::gpus>, setInt<&RunRecord::gpus> },
    { "isl", getInt<&RunRecord::isl>, setInt<&RunRecord::isl> },
    { "osl", getInt<&RunRecord::osl>, setInt<&RunRecord::osl> },
    { "workload", getText<&RunRecord::workload>, setText<&RunRecord::workload> },
    { "concurrency", getInt<&RunRecord::concurrency>, setInt<&RunRecord::concurrency> },
    { "run_date", getText<&RunRecord::runDate>, setRunDate },
    { "run_url", getText<&RunRecord::runUrl>, setText<&RunRecord::runUrl> },
    { "run", getText<&RunRecord::run>, setText<&RunRecord::run> },
    { "run_started", getRunStarted, setRunStarted },
    { "append_only", getAppendOnly, setBool<&RunRecord::appendOnly> },
    { "recipe_fingerprint", getText<&RunRecord::recipeFingerprint>, setText<&RunRecord::recipeFingerprint> },
    { "tput_per_gpu_tok_s", getReal<&RunRecord::tputPerGpu>, setReal<&RunRecord::tputPerGpu> },
    { "output_tput_per_gpu_tok_s", getReal<&RunRecord::outputTputPerGpu>, setReal<&RunRecord::outputTputPerGpu> },
    { "input_tput_per_gpu_tok_s", getReal<&RunRecord::inputTputPerGpu>, setReal<&RunRecord::inputTputPerGpu> },
    { "interactivity_tok_s_user", getReal<&RunRecord::interactivity>, setReal<&RunRecord::interactivity> },
    PS_STAT_COLUMNS(ttft),
    PS_STAT_COLUMNS(tpot),
    PS_STAT_COLUMNS(itl),
    PS_STAT_COLUMNS(e2el),
    { "avg_power_w", getReal<&RunRecord::avgPowerW>, setReal<&RunRecord::avgPowerW> },
    { "completed", getCount<&RunRecord::completed>, setCount<&RunRecord::completed> },
    { "failed", getCount<&RunRecord::failed>, setCount<&RunRecord::failed> },
    { "note", getNote, setNote },
    { "marked", getText<&RunRecord::marked>, setText<&RunRecord::marked> },
    { "validity", getText<&RunRecord::validity>, setText<&RunRecord::validity> },
    // provenance of the original import: written for the reader, not taken back (a re-import has its own)
    { "source", getSource, ignore },
    { "source_sha256", getSha, ignore },
    { "source_format", getFormat, ignore },
};
#undef PS_STAT_COLUMNS

} // namespace

std::span<const RecordColumn> recordColumns()
{
    return kRecordColumns;
}

} // namespace paretoscope
