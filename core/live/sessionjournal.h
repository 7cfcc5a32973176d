#pragma once

#include <string>
#include <string_view>
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

/// One line of a session file: a measured level, or how the session ended.
struct Line {
    bool ends = false; ///< how the session ended: status and reason; otherwise a level
    std::string status;
    std::string reason;
    int level = 0;
    int concurrency = 0;
    RunRecord record;
    std::string metrics;
    std::vector<RequestLog> requests;
};

/// Reads one line of the file kept for session fileSession. Every field is checked before use: its type, levels
/// and concurrencies in range, the record's concurrency equal to the line's, and the session it names equal to the
/// file's (a line never speaks for another session). Errors start with `where`.
Result<Line> parseLine(std::string_view text, long long fileSession, const std::string& where);

/// Stores every level and end the store's session files hold and removes each file stored whole.
std::vector<Recovered> recover(RunStore& store);

/// How many levels wait in the store's session files.
int pendingLevels(const std::string& storePath);

} // namespace paretoscope::sessionjournal
