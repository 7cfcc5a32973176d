#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/model/result.h"
#include "core/model/scope.h"

namespace paretoscope {

class RunStore;

// What a sync from an InferenceX API (core/sync, docs/sync.md) keeps in the store, and the one read of runs it makes.

/// What the store remembers of one model and sequence synced from one source: the newest run date synced, and
/// whether the sync took its whole history (a later sync with history refetches a unit synced as the latest view only).
struct SyncMark {
    std::string lastDate;
    bool history = false;
    std::int64_t syncedAt = 0; ///< seconds since the epoch
};

/// The marks of a source, by unit label ("DeepSeek-R1-0528 1k/1k"); empty when it was never synced. On a read
/// error, an error.
Result<std::map<std::string, SyncMark>> readSyncMarks(RunStore& store, const std::string& source);
/// Records a unit synced, in a write transaction of its own.
Status writeSyncMark(RunStore& store, const std::string& source, const std::string& unit, const SyncMark& mark);

/// One sync as the store logs it: when, from where, and its summary (the JSON `paretoscope-cli sync` prints).
struct SyncLogEntry {
    std::string source;
    std::int64_t startedAt = 0;
    std::int64_t finishedAt = 0;
    std::string summary;
};
Status appendSyncLog(RunStore& store, const SyncLogEntry& entry);
/// The syncs that finished at or after `since` (seconds since the epoch), oldest first.
Result<std::vector<SyncLogEntry>> readSyncLog(RunStore& store, std::int64_t since);

/// Per group (hardware, engine, precision, spec decoding) of a model and lengths, the newest run date stored (runs
/// without a date do not count); empty on a read error, which the store records (readStatus).
std::vector<std::pair<GroupKey, std::string>> newestRunDates(
    RunStore& store, const std::string& model, int isl, int osl);

} // namespace paretoscope
