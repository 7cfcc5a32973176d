#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/runrecord.h"
#include "core/model/scope.h"

namespace paretoscope {

/// What decides whether a stored point is selected (docs/architecture.md section 10.2): its line (the configuration
/// without concurrency), its curve, its concurrency, the day it counts as dated on, its run and its id.
struct RunVersion {
    std::uint64_t line = 0; ///< lineKeyHash of the point
    std::uint64_t curve = 0; ///< curveKeyHash of the point
    int concurrency = 0;
    int day = 0; ///< yyyymmdd: the run date, or the import day of an undated run
    std::int64_t started = 0; ///< when its run started (seconds since the epoch), 0 unknown
    std::int64_t run = 0; ///< its run (RunIdentity::order): unique per run, and the last tie-break between runs
    long long id = 0;
    std::uint64_t image = 0; ///< textKey of its engine image, 0 unknown
    std::uint64_t recipe = 0; ///< textKey of its recipe fingerprint, 0 none: part of the point's identity
    bool appendOnly = false; ///< its run adds to its curve (RunRecord::appendOnly)
};
/// A hash of a text that is 0 for an empty one (an engine image, a recipe fingerprint).
std::uint64_t textKey(std::string_view text);
/// The day number of a yyyy-mm-dd... text (yyyymmdd), or 0 when it does not start with such a date.
int dayNumber(std::string_view date);
/// Now, in seconds since the epoch: what the store's times (an import's, a session's, a sync's) are written in.
std::int64_t nowEpochSeconds();
/// The yyyymmdd of a time in seconds since the epoch (UTC).
int dayOfEpochSeconds(std::int64_t seconds);
/// yyyy-mm-dd of a day number.
std::string dayText(int day);
/// A bound for asOf: its day number, or the largest int when empty (no bound).
inline int asOfDay(const std::string& asOf)
{
    return asOf.empty() ? std::numeric_limits<int>::max() : dayNumber(asOf);
}
/// Whether a text is a date like 2026-07-31 (a real calendar day).
bool isIsoDate(std::string_view text);
/// The first day a run read from outside data may carry (docs/formats.md, "Dates"): no LLM was served before it.
inline constexpr int kFirstRunDay = 20000101;
/// Why a date read from outside data (a run's, an evaluation's, an availability row's) cannot be one, or empty: it
/// must be a real calendar day, yyyy-mm-dd, from kFirstRunDay to tomorrow (UTC: a run finished today anywhere on
/// Earth). E.g. "'2026-02-30' is not a calendar day (yyyy-mm-dd)", "'9999-12-31' is after tomorrow (2026-12-08)".
std::string outsideDateProblem(std::string_view date);

/// Hash of a line, a configuration without its concurrency (docs/architecture.md section 10.1): a series (an id, or
/// seriesHash; the series fixes model, lengths, workload, hardware, engine, precision and spec decoding),
/// disaggregation, the decode side's tp, ep, attention data parallel and workers, the prefill side's, and the prefill
/// and decode GPUs. Not the engine image: a new image is the same configuration measured again. A point whose
/// concurrency is unknown (0: a published reading rather than a measured level, as the bundled dataset's) cannot be
/// told to be a rerun of another: it is a line of its own (runId makes it so).
struct LineKey {
    std::uint64_t series = 0;
    bool disaggregated = false;
    int tp = 0, ep = 0, workers = 0;
    bool dpAttention = false;
    int prefillTp = 0, prefillEp = 0, prefillWorkers = 0;
    bool prefillDpAttention = false;
    int prefillGpus = 0, decodeGpus = 0;
};
std::uint64_t lineKeyHash(const LineKey& key, int concurrency, long long runId);

/// Whether a workload is an agentic trace (variable lengths, isl and osl 0), whose curve merges spec decoding,
/// disaggregation and offload mode.
constexpr bool isAgenticTrace(int isl, int osl)
{
    return isl == 0 && osl == 0;
}
/// The series part of an agentic trace's curve: model, lengths, workload, hardware, engine and precision (not spec
/// decoding).
std::uint64_t agenticCurveSeries(const std::string& model, int isl, int osl, const std::string& workload,
    const std::string& hardware, const std::string& engine, const std::string& precision);
/// Hash of a curve, the InferenceX site's replacement boundary since its migrations 011 and 014
/// (docs/architecture.md section 10.1): model, lengths or workload, benchmark type, hardware, engine, precision, spec
/// decoding, disaggregation and offload mode (not stored: "off" for every run). series is the series (an id, or
/// seriesHash), or for an agentic trace agenticCurveSeries, where disaggregation does not count either. A point whose
/// concurrency is unknown is a curve of its own, as it is a line of its own.
std::uint64_t curveKeyHash(std::uint64_t series, bool disaggregated, bool agentic, int concurrency, long long runId);

/// Indices of the selected points, ascending. Latest: per curve, the run with the newest day on or before asOf, then
/// the latest start, then the highest run (RunVersion::run); every point that run measured on the curve is kept,
/// whatever its parallelism (of a configuration, concurrency and recipe it measured more than once, its last point),
/// and none is borrowed from another run, except that an append-only run whose points on the curve all come from one
/// engine image chains back to the next older run of the curve with that image, and on while the chain stays
/// append-only: their points are added, the newest run's winning where two share a configuration, concurrency and
/// recipe. LatestPerConfiguration: the per-line rule (no chains). All: every point dated on or before asOf.
std::vector<std::size_t> selectRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf);

/// The points a reading's spread is taken from (docs/architecture.md section 10.3), ascending. All: the selected
/// points; Latest: every point of a line dated on the day of the line's selected run (the repeats of a session, and
/// other runs of that day).
std::vector<std::size_t> spreadRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf);

/// The version of a full record as stored (its series by seriesHash, its run by its key; undated: its source's
/// import day).
RunVersion runVersion(const RunRecord& record, long long id);

/// A curve whose selected run measured fewer points (configurations and concurrencies) than the run it replaced: the
/// hole the site's rule leaves (a narrow validation sweep replaces a published curve), shown rather than hidden.
struct NarrowedCurve {
    std::size_t newest = 0; ///< index of a point of the selected run
    std::size_t replaced = 0; ///< index of a point of the run before it on the curve
    int newestPoints = 0;
    int replacedPoints = 0;
};
/// The curves narrowed by the Latest rule as of asOf, ordered by the selected run's first point.
std::vector<NarrowedCurve> narrowedCurves(const std::vector<RunVersion>& runs, int asOf);

/// "latest" / "latest-per-configuration" / "all"
std::string_view runSelectionName(RunSelection s);
/// The selection a name gives (runSelectionName's names), or none.
std::optional<RunSelection> parseRunSelection(std::string_view name);

} // namespace paretoscope
