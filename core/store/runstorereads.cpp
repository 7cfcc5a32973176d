// The run store's reads: the scope list, series, points, timed runs and their statistics, stored runs by id and by
// series (paged for the Runs tab), counts and content hashes. Writes, opening and migrations are in runstore.cpp.
#include "core/store/runstore.h"

#include <sqlite3.h>

#include <algorithm>
#include <unordered_map>

#include "core/store/contentbuckets.h"
#include "core/store/latencypack.h"
#include "core/store/runcolumns.h"
#include "core/store/sqlite.h"

namespace paretoscope {

using sql::idList;
using sql::sqlNumber;

std::vector<ScopeSummary> RunStore::scopes()
{
    sql::Statement s(m_db,
        "SELECT se.model, se.isl, se.osl, se.workload, count(r.id), group_concat(DISTINCT se.hardware) "
        "FROM series se JOIN runs r ON r.series_id = se.id "
        "GROUP BY se.model, se.isl, se.osl, se.workload ORDER BY se.model, se.isl, se.osl, se.workload");
    std::vector<ScopeSummary> out;
    while (s.step()) {
        ScopeSummary sc { s.text(0), static_cast<int>(s.int64(1)), static_cast<int>(s.int64(2)), s.text(3), s.int64(4),
            {} };
        std::string hw = s.text(5);
        std::size_t from = 0;
        while (from <= hw.size()) {
            std::size_t comma = hw.find(',', from);
            if (comma == std::string::npos)
                comma = hw.size();
            if (comma > from)
                sc.hardware.push_back(hw.substr(from, comma - from));
            from = comma + 1;
        }
        out.push_back(std::move(sc));
    }
    noteRead(s);
    return out;
}

std::vector<std::string> RunStore::models()
{
    std::vector<std::string> out;
    sql::Statement s(m_db, "SELECT DISTINCT model FROM series ORDER BY model");
    while (s.step())
        out.push_back(s.text(0));
    noteRead(s);
    return out;
}

std::vector<Series> RunStore::series(const Scope& scope)
{
    if (scope.matchesNothing)
        return {};
    std::string q = "SELECT id, model, isl, osl, workload, hardware, engine, precision, spec_decoding, "
                    "(SELECT count(*) FROM runs WHERE runs.series_id = series.id) AS n FROM series WHERE model = ?1";
    if (scope.isl)
        q += " AND isl = ?2";
    if (scope.osl)
        q += " AND osl = ?3";
    if (!scope.workload.empty())
        q += " AND workload = ?4";
    q += " AND n > 0 ORDER BY hardware, engine, precision, spec_decoding, id";
    sql::Statement s(m_db, q);
    s.bindText(1, scope.model);
    if (scope.isl)
        s.bind(2, static_cast<std::int64_t>(*scope.isl));
    if (scope.osl)
        s.bind(3, static_cast<std::int64_t>(*scope.osl));
    if (!scope.workload.empty())
        s.bindText(4, scope.workload);
    auto allowed = [](const std::vector<std::string>& filter, const std::string& v) {
        if (filter.empty())
            return true;
        for (const auto& f : filter)
            if (f == v)
                return true;
        return false;
    };
    std::vector<Series> out;
    while (s.step()) {
        Series se;
        se.id = s.int64(0);
        se.model = s.text(1);
        se.isl = static_cast<int>(s.int64(2));
        se.osl = static_cast<int>(s.int64(3));
        se.workload = s.text(4);
        se.key = GroupKey { s.text(5), s.text(6), s.text(7), s.text(8) };
        se.runs = s.int64(9);
        if (allowed(scope.hardware, se.key.hardware) && allowed(scope.engines, se.key.engine)
            && allowed(scope.precisions, se.key.precision) && allowed(scope.specDecoding, se.key.specDecoding))
            out.push_back(std::move(se));
    }
    noteRead(s);
    return out;
}

namespace {

// The y of a metric on a basis: on all GPUs a disaggregated run's output tokens per decode GPU become per all its GPUs
// (times decode / all GPUs), its input tokens per prefill GPU likewise.
std::string metricColumn(TputMetric metric, TputBasis basis = TputBasis::Serving)
{
    if (metric == TputMetric::Total)
        return "tput_per_gpu";
    std::string column = metric == TputMetric::Input ? "input_tput_per_gpu" : "output_tput_per_gpu";
    if (basis == TputBasis::Serving)
        return column;
    const std::string side = metric == TputMetric::Input ? "prefill_gpus" : "decode_gpus";
    return "(CASE WHEN disaggregated AND " + side + " > 0 AND gpus > 0 THEN " + column + " * " + side + " / gpus ELSE "
        + column + " END)";
}

} // namespace

std::string sloCondition(const Scope& scope, std::string_view table)
{
    // the limits are numbers of ours, written as literals that read back exactly; NULL <= x is not true, so a run
    // without the statistic does not meet the limit
    const std::string t = table.empty() ? std::string() : std::string(table) + ".";
    std::string q;
    if (scope.ttftMax)
        q += (scope.ttftStat == LatencyStat::P99 ? " AND paretoscope_latency_stat(" + t + "latency_stats, "
                         + std::to_string(PackedLatency::kTtftP99) + ")"
                                                 : " AND " + t + "ttft_median_s")
            + " <= " + sqlNumber(*scope.ttftMax);
    // median TPOT: the stored one, else 1 / interactivity, which is defined as 1 / median TPOT (a published reading
    // may give only the interactivity); 1.0 / 0 is NULL in SQL
    if (scope.tpotMax)
        q += " AND coalesce(" + t + "tpot_median_s, 1.0 / " + t + "interactivity) <= " + sqlNumber(*scope.tpotMax);
    return q;
}

namespace {

// "SELECT <columns> FROM runs WHERE series_id = ?1 [dates] [limits]" with the date range bound as ?2 and ?3
sql::Statement seriesQuery(sqlite3* db, const std::string& columns, const std::string& where, const Scope& dates)
{
    std::string q = "SELECT " + columns + " FROM runs WHERE series_id = ?1 AND " + where + sloCondition(dates, "");
    if (dates.excludeFlagged)
        q += " AND validity IS NULL";
    if (!dates.dateFrom.empty())
        q += " AND run_date >= ?2";
    if (!dates.dateTo.empty())
        q += " AND substr(run_date, 1, 10) <= ?3";
    return sql::Statement(db, q);
}

void bindSeries(sql::Statement& s, long long id, const Scope& dates)
{
    s.reset();
    s.bind(1, static_cast<std::int64_t>(id));
    if (!dates.dateFrom.empty())
        s.bindText(2, dates.dateFrom);
    if (!dates.dateTo.empty())
        s.bindText(3, dates.dateTo);
}

} // namespace

namespace {

// Whether a scope keeps only some of its runs: its latest per curve or configuration, or those up to a date.
bool selects(const Scope& scope)
{
    return scope.runs != RunSelection::All || !scope.asOf.empty();
}

std::vector<RunVersion> versionsOf(const std::vector<TimedRun>& runs)
{
    std::vector<RunVersion> out;
    out.reserve(runs.size());
    for (const TimedRun& r : runs)
        out.push_back(r.version);
    return out;
}

// The runs a scope selects among every run inside its dates.
std::vector<TimedRun> selectedOf(std::vector<TimedRun> runs, const Scope& scope)
{
    std::vector<TimedRun> out;
    const auto keep = selectRuns(versionsOf(runs), scope.runs, asOfDay(scope.asOf));
    out.reserve(keep.size());
    for (std::size_t i : keep)
        out.push_back(runs[i]);
    return out;
}

} // namespace

std::vector<Point> RunStore::points(const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates)
{
    if (dates.matchesNothing)
        return {};
    std::vector<Point> out;
    if (selects(dates)) {
        for (const TimedRun& r : selectedOf(timedRuns(seriesIds, metric, dates), dates)) {
            const RunPoint& p = r.point;
            if (p.interactivity > 0 && p.tputPerGpu > 0 && (!p.marked || dates.includeMarked))
                out.push_back(Point { p.interactivity, p.tputPerGpu, p.runId, p.marked });
        }
        return out;
    }
    const std::string y = metricColumn(metric, dates.basis);
    const std::string trusted = dates.includeMarked ? "" : " AND marked IS NULL";
    sql::Statement s
        = seriesQuery(m_db, "interactivity, " + y + ", id", "interactivity > 0 AND " + y + " > 0" + trusted, dates);
    for (long long id : seriesIds) {
        bindSeries(s, id, dates);
        while (s.step())
            out.push_back(Point { s.real(0), s.real(1), s.int64(2) });
        noteRead(s);
    }
    return out;
}

std::vector<RunPoint> RunStore::runPoints(
    const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates)
{
    if (dates.matchesNothing)
        return {};
    std::vector<TimedRun> runs = timedRuns(seriesIds, metric, dates);
    if (selects(dates))
        runs = selectedOf(std::move(runs), dates);
    std::vector<RunPoint> out;
    out.reserve(runs.size());
    for (TimedRun& r : runs)
        out.push_back(r.point);
    return out;
}

std::vector<TimedRun> RunStore::timedRuns(
    const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates)
{
    if (dates.matchesNothing || seriesIds.empty())
        return {};
    // an undated run counts as dated on its source's import day; the sources are few
    std::unordered_map<long long, int> importDay;
    {
        sql::Statement src(m_db, "SELECT id, imported_at FROM sources");
        while (src.step())
            importDay[src.int64(0)] = dayOfEpochSeconds(src.int64(1));
        noteRead(src);
    }
    // each series' part of its points' curves (curveKeyHash): the series, or for an agentic trace its fields but spec
    // decoding, so that the trace's curve spans its series of every spec decoding
    std::unordered_map<long long, std::pair<std::uint64_t, bool>> curveSeries;
    {
        sql::Statement sr(
            m_db, "SELECT model, isl, osl, workload, hardware, engine, precision FROM series WHERE id = ?");
        for (long long id : seriesIds) {
            sr.reset();
            sr.bind(1, static_cast<std::int64_t>(id));
            std::pair<std::uint64_t, bool> part { static_cast<std::uint64_t>(id), false };
            if (sr.step()) {
                const int isl = static_cast<int>(sr.int64(1)), osl = static_cast<int>(sr.int64(2));
                if (isAgenticTrace(isl, osl))
                    part = { agenticCurveSeries(sr.text(0), isl, osl, sr.text(3), sr.text(4), sr.text(5), sr.text(6)),
                        true };
            }
            curveSeries[id] = part;
        }
        noteRead(sr);
    }
    const std::string y = metricColumn(metric, dates.basis);
    sql::Statement s = seriesQuery(m_db,
        "interactivity, " + y
            + ", e2el_median_s, id, marked IS NOT NULL, ttft_median_s, latency_stats, tpot_median_s, tp, ep, "
              "dp_attention, disaggregated, prefill_gpus, decode_gpus, concurrency, run_date, source_id, avg_power_w, "
              "decode_workers, prefill_tp, prefill_ep, prefill_dp_attention, prefill_workers, run_order, run_started, "
              "append_only, engine_image, recipe_fingerprint",
        "1 = 1", dates);
    std::vector<TimedRun> out;
    for (long long id : seriesIds) {
        bindSeries(s, id, dates);
        while (s.step()) {
            TimedRun r;
            r.point = RunPoint { s.real(0), s.real(1), s.real(2), s.int64(3), s.int64(4) != 0, s.real(5),
                PackedLatency::stat(s.blobView(6), PackedLatency::kTtftP99).value_or(0), s.real(17) };
            r.tpotSeconds = s.real(7);
            const int day = dayNumber(s.text(15));
            r.dated = day != 0;
            const auto source = importDay.find(s.int64(16));
            LineKey line;
            line.series = static_cast<std::uint64_t>(id);
            line.tp = static_cast<int>(s.int64(8));
            line.ep = static_cast<int>(s.int64(9));
            line.dpAttention = s.int64(10) != 0;
            line.disaggregated = s.int64(11) != 0;
            line.prefillGpus = static_cast<int>(s.int64(12));
            line.decodeGpus = static_cast<int>(s.int64(13));
            line.workers = static_cast<int>(s.int64(18));
            // a prefill side not recorded (NULL: stored before the sides were kept apart) is the decode side's
            const bool prefillKnown = !s.isNull(19) || !s.isNull(20);
            line.prefillTp = prefillKnown ? static_cast<int>(s.int64(19)) : line.tp;
            line.prefillEp = prefillKnown ? static_cast<int>(s.int64(20)) : line.ep;
            line.prefillDpAttention = prefillKnown ? s.int64(21) != 0 : line.dpAttention;
            line.prefillWorkers = static_cast<int>(s.int64(22));
            const int concurrency = static_cast<int>(s.int64(14));
            const auto& [curvePart, agentic] = curveSeries[id];
            r.version = RunVersion { lineKeyHash(line, concurrency, r.point.runId),
                curveKeyHash(curvePart, line.disaggregated, agentic, concurrency, r.point.runId), concurrency,
                r.dated ? day : (source != importDay.end() ? source->second : 0), s.int64(24), s.int64(23),
                r.point.runId, textKey(s.blobView(26)), textKey(s.blobView(27)), s.int64(25) != 0 };
            out.push_back(r);
        }
        noteRead(s);
    }
    return out;
}

namespace {

// runStats of runs at hand: the same aggregates as its query, where run dates are the selected runs' own.
RunStats statsOf(const std::vector<TimedRun>& runs, const Scope& scope, double ttftFloor, double tpotFloor)
{
    RunStats out;
    auto lower = [](std::optional<double>& into, double v) {
        if (!into || v < *into)
            into = v;
    };
    for (const TimedRun& r : runs) {
        const RunPoint& p = r.point;
        if (p.marked && !scope.includeMarked)
            continue;
        ++out.runs;
        if (r.dated) {
            const std::string day = dayText(r.version.day);
            if (out.firstDate.empty() || day < out.firstDate)
                out.firstDate = day;
            if (day > out.lastDate)
                out.lastDate = day;
        }
        if (p.tputPerGpu > 0 && (!out.peakTputPerGpu || p.tputPerGpu > *out.peakTputPerGpu))
            out.peakTputPerGpu = p.tputPerGpu;
        if (p.ttftSeconds > 0)
            lower(p.ttftSeconds >= ttftFloor ? out.fastestTtft : out.suspectTtft, p.ttftSeconds);
        if (r.tpotSeconds > 0)
            lower(r.tpotSeconds >= tpotFloor ? out.fastestTpot : out.suspectTpot, r.tpotSeconds);
    }
    return out;
}

} // namespace

RunStats RunStore::runStats(
    const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates, double ttftFloor, double tpotFloor)
{
    if (dates.matchesNothing)
        return {};
    if (selects(dates))
        return statsOf(selectedOf(timedRuns(seriesIds, metric, dates), dates), dates, ttftFloor, tpotFloor);
    const std::string y = metricColumn(metric, dates.basis);
    sql::Statement s = seriesQuery(m_db,
        "count(*), min(NULLIF(run_date, '')), max(NULLIF(run_date, '')), max(" + y
            + "), min(CASE WHEN ttft_median_s >= ?4 THEN ttft_median_s END), "
              "min(CASE WHEN tpot_median_s >= ?5 THEN tpot_median_s END), "
              "min(CASE WHEN ttft_median_s >= 0 AND ttft_median_s < ?4 THEN ttft_median_s END), "
              "min(CASE WHEN tpot_median_s >= 0 AND tpot_median_s < ?5 THEN tpot_median_s END)",
        dates.includeMarked ? "1 = 1" : "marked IS NULL", dates);
    RunStats out;
    auto lower = [](std::optional<double>& into, std::optional<double> v) {
        if (v && (!into || *v < *into))
            into = v;
    };
    for (long long id : seriesIds) {
        bindSeries(s, id, dates);
        s.bind(4, ttftFloor);
        s.bind(5, tpotFloor);
        if (!s.step()) {
            noteRead(s);
            continue;
        }
        out.runs += s.int64(0);
        std::string first = s.text(1), last = s.text(2);
        if (!first.empty() && (out.firstDate.empty() || first < out.firstDate))
            out.firstDate = first;
        if (!last.empty() && last > out.lastDate)
            out.lastDate = last;
        if (auto peak = s.optReal(3); peak && (!out.peakTputPerGpu || *peak > *out.peakTputPerGpu))
            out.peakTputPerGpu = peak;
        lower(out.fastestTtft, s.optReal(4));
        lower(out.fastestTpot, s.optReal(5));
        lower(out.suspectTtft, s.optReal(6));
        lower(out.suspectTpot, s.optReal(7));
    }
    return out;
}

std::vector<StoredRun> RunStore::selectRuns(const std::string& where, const std::vector<std::string>& binds)
{
    std::string q = "SELECT r.id, se.model, se.isl, se.osl, se.workload, se.hardware, se.engine, se.precision, "
                    "se.spec_decoding, so.path, so.sha256, so.format, so.imported_at";
    for (const RunColumn& c : runColumns())
        q += std::string(", r.") + c.name;
    q += ", r.run_key, r.run_started";
    q += " FROM runs r JOIN series se ON se.id = r.series_id JOIN sources so ON so.id = r.source_id WHERE " + where;
    sql::Statement s(m_db, q);
    for (std::size_t k = 0; k < binds.size(); ++k)
        s.bindText(static_cast<int>(k + 1), binds[k]);
    std::vector<StoredRun> out;
    while (s.step()) {
        StoredRun run;
        run.id = s.int64(0);
        RunRecord& r = run.record;
        r.model = s.text(1);
        r.isl = static_cast<int>(s.int64(2));
        r.osl = static_cast<int>(s.int64(3));
        r.workload = s.text(4);
        r.hardware = s.text(5);
        r.engine = s.text(6);
        r.precision = s.text(7);
        r.specDecoding = s.text(8);
        r.provenance.source = s.text(9);
        r.provenance.sha256 = s.text(10);
        r.provenance.format = s.text(11);
        r.provenance.importedAt = s.int64(12);
        int col = 13;
        for (const RunColumn& c : runColumns())
            c.read(s, col++, r);
        r.run = s.text(col++);
        r.runStarted = s.optInt(col++).value_or(0);
        if (r.disaggregated && r.prefillTp == 0 && r.prefillEp == 0) // stored before the sides were kept apart
            r.provenance.note += std::string(r.provenance.note.empty() ? "" : "; ")
                + "prefill side not recorded (stored before prefill and decode were kept apart): shown as the decode "
                  "side's; import its file again to restore it";
        completeConfiguration(r);
        out.push_back(std::move(run));
    }
    noteRead(s);
    return out;
}

std::vector<StoredRun> RunStore::runs(const std::vector<long long>& ids)
{
    if (ids.empty())
        return {};
    auto found = selectRuns("r.id IN (" + idList(ids) + ")");
    std::unordered_map<long long, std::size_t> at;
    for (std::size_t i = 0; i < found.size(); ++i)
        at[found[i].id] = i;
    std::vector<StoredRun> out;
    out.reserve(found.size());
    for (long long id : ids)
        if (auto it = at.find(id); it != at.end())
            out.push_back(found[it->second]);
    return out;
}

namespace {

// The runs of the given series inside the scope's dates and limits, as a WHERE clause on runs r with ?1, ?2 for the
// dates.
std::string seriesWhere(const std::vector<long long>& seriesIds, const Scope& dates, std::vector<std::string>& binds)
{
    std::string where = "r.series_id IN (" + idList(seriesIds) + ")";
    if (!dates.dateFrom.empty()) {
        binds.push_back(dates.dateFrom);
        where += " AND r.run_date >= ?" + std::to_string(binds.size());
    }
    if (!dates.dateTo.empty()) {
        binds.push_back(dates.dateTo);
        where += " AND substr(r.run_date, 1, 10) <= ?" + std::to_string(binds.size());
    }
    return where + sloCondition(dates, "r") + (dates.excludeFlagged ? " AND r.validity IS NULL" : "");
}

} // namespace

std::vector<StoredRun> RunStore::runsOfSeries(
    const std::vector<long long>& seriesIds, const Scope& dates, std::size_t limit)
{
    if (seriesIds.empty() || dates.matchesNothing)
        return {};
    std::vector<std::string> binds;
    std::string where = seriesWhere(seriesIds, dates, binds);
    where += " ORDER BY r.series_id, r.interactivity";
    if (!selects(dates)) {
        if (limit > 0)
            where += " LIMIT " + std::to_string(limit);
        return selectRuns(where, binds);
    }
    std::vector<StoredRun> all = selectRuns(where, binds);
    std::vector<RunVersion> versions;
    versions.reserve(all.size());
    for (const StoredRun& r : all)
        versions.push_back(runVersion(r.record, r.id));
    std::vector<StoredRun> out;
    for (std::size_t i : paretoscope::selectRuns(versions, dates.runs, asOfDay(dates.asOf))) {
        if (limit > 0 && out.size() >= limit)
            break;
        out.push_back(std::move(all[i]));
    }
    return out;
}

std::vector<StoredRun> RunStore::runsOfSeriesPage(
    const std::vector<long long>& seriesIds, const Scope& dates, long long afterId, std::size_t limit)
{
    if (seriesIds.empty() || dates.matchesNothing || limit == 0)
        return {};
    std::vector<std::string> binds;
    // keyset paging on the row id: each page costs the same however deep the list has been scrolled
    std::string where = seriesWhere(seriesIds, dates, binds) + " AND r.id > " + std::to_string(afterId)
        + " ORDER BY r.id LIMIT " + std::to_string(limit);
    return selectRuns(where, binds);
}

long long RunStore::runCountOfSeries(const std::vector<long long>& seriesIds, const Scope& dates)
{
    if (seriesIds.empty() || dates.matchesNothing)
        return 0;
    std::vector<std::string> binds;
    sql::Statement s(m_db, "SELECT count(*) FROM runs r WHERE " + seriesWhere(seriesIds, dates, binds));
    for (std::size_t k = 0; k < binds.size(); ++k)
        s.bindText(static_cast<int>(k + 1), binds[k]);
    const long long n = s.step() ? s.int64(0) : 0;
    noteRead(s);
    return n;
}

std::vector<StoredRun> RunStore::allRuns()
{
    return selectRuns("1 = 1 ORDER BY r.id");
}

long long RunStore::runCount()
{
    sql::Statement s(m_db, "SELECT count(*) FROM runs");
    const long long n = s.step() ? s.int64(0) : 0;
    noteRead(s);
    return n;
}

std::vector<std::uint64_t> RunStore::storedContentHashes()
{
    std::vector<std::uint64_t> out;
    sql::Statement s(m_db, "SELECT hashes FROM content_buckets ORDER BY bucket");
    while (s.step()) {
        const auto hashes = contentbuckets::decode(s.blobView(0));
        out.insert(out.end(), hashes.begin(), hashes.end());
    }
    noteRead(s);
    return out;
}

} // namespace paretoscope
