#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/runrecord.h"
#include "core/model/scope.h"

namespace paretoscope {

/// What decides whether a run is selected (docs/architecture.md section 10.2): its configuration, the day it counts as
/// dated on and its id (a later import has a higher id).
struct RunVersion {
    std::uint64_t config = 0; ///< configKeyHash of the run
    int day = 0; ///< yyyymmdd: the run date, or the import day of an undated run
    long long id = 0;
};

/// The day number of a yyyy-mm-dd... text (yyyymmdd), or 0 when it does not start with such a date.
int dayNumber(std::string_view date);
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

/// Hash of a configuration key (docs/architecture.md section 10.1): a series (an id, or seriesHash; the series fixes
/// model, lengths, workload, hardware, engine, precision and spec decoding) and tp, ep, dp-attention, disaggregated,
/// prefill and decode GPUs, concurrency. Not the engine image: a new image is the same configuration measured again. A
/// run whose concurrency is unknown (0: a published reading rather than a measured level, as the bundled dataset's)
/// cannot be told to be a rerun of another: it is a configuration of its own (runId makes it so).
std::uint64_t configKeyHash(std::uint64_t series, int tp, int ep, bool dpAttention, bool disaggregated, int prefillGpus,
    int decodeGpus, int concurrency, long long runId);

/// Indices of the selected runs, ascending. Latest: per configuration the run with the greatest (day, id) among
/// those with day <= asOf; All: every run with day <= asOf.
std::vector<std::size_t> selectRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf);

/// The runs a reading's spread is taken from (docs/architecture.md section 10.3), ascending. All: the selected runs;
/// Latest: every run dated on the day of its configuration's selected run (repeats of one session share a day), whose
/// last-imported run is the one selected.
std::vector<std::size_t> spreadRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf);

/// The version of a full record (its series by seriesHash, undated: its source's import day).
RunVersion runVersion(const RunRecord& record, long long id);

/// "latest" / "all"
std::string_view runSelectionName(RunSelection s);

} // namespace paretoscope
