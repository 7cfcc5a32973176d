#pragma once

#include <string>
#include <vector>

#include "core/live/requestlog.h"
#include "core/model/result.h"
#include "core/model/runrecord.h"
#include "core/store/runstore.h"

namespace paretoscope::sessionjournal {

/// What a live session measured but the store could not take (a full disk, a damaged store), kept in a file of the
/// session's own beside the store, STORE-sessions/session-ID.jsonl (one JSON object a line, fsynced), until
/// `paretoscope-cli sessions --recover` stores it. A measured level is never lost to a store that fails.

/// The folder of a store's session files.
std::string directory(const std::string& storePath);

/// Keeps a level that was not stored; returns the file it went to.
Result<std::string> keepLevel(const std::string& storePath, long long sessionId, int level, int concurrency,
    const RunRecord& record, const std::string& metricsJson, const std::vector<RequestLog>& requests);

/// Keeps how a session ended, when the store could not record it.
Result<std::string> keepEnd(
    const std::string& storePath, long long sessionId, const std::string& status, const std::string& reason);

/// What one session file gave back to the store.
struct Recovered {
    std::string file;
    long long sessionId = 0;
    int levelsStored = 0; ///< levels stored now
    int levelsAlready = 0; ///< levels the store held already
    bool endRecorded = false;
    std::string error; ///< why the file (or what is left of it) stays; empty when it was stored whole and removed
};

/// Stores every level and end the store's session files hold and removes each file stored whole.
std::vector<Recovered> recover(RunStore& store);

/// How many levels wait in the store's session files.
int pendingLevels(const std::string& storePath);

} // namespace paretoscope::sessionjournal
