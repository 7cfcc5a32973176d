#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/live/requestlog.h"
#include "core/live/sessionconfig.h"
#include "core/model/result.h"
#include "core/model/runrecord.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// A live session as the store keeps it.
struct SessionInfo {
    long long id = 0;
    std::int64_t startedAt = 0; ///< seconds since the epoch
    std::int64_t finishedAt = 0; ///< 0 while running
    std::string status; ///< running, finished, failed, cancelled, interrupted
    std::string reason; ///< why it failed or stopped, empty when it finished
    std::string simulation; ///< the emulator's label, empty on real hardware
    SessionConfig config;
    int levels = 0; ///< finished levels stored
};

/// A finished level: its run, its metrics (JSON) and how many requests it kept.
struct StoredLevel {
    int level = 0;
    int concurrency = 0;
    long long runId = 0; ///< 0 when the run was deleted since
    std::string metricsJson;
};

/// Starts a session row (status "running", this process's id).
Result<long long> createSession(RunStore& store, const SessionConfig& config, const std::string& simulation);
/// Records what the preflight found out: the configuration as resolved (the model served), the emulator's label.
Status updateSession(RunStore& store, long long sessionId, const SessionConfig& config, const std::string& simulation);
/// Stores a finished level in one transaction: the run record (source "session:ID"), its metrics and its raw
/// requests. Returns the run's id.
Result<long long> storeLevel(RunStore& store, long long sessionId, int level, int concurrency, const RunRecord& record,
    const std::string& metricsJson, const std::vector<RequestLog>& requests);
/// Ends a session: finished, failed, or cancelled, with the reason.
Status finishSession(RunStore& store, long long sessionId, const std::string& status, const std::string& reason);
/// Records that levels a session kept in its own file (sessionjournal) are in the store now: its reason no longer says
/// they are missing.
Status noteLevelsRecovered(RunStore& store, long long sessionId, int levels);
/// Sessions still marked running whose process is gone (killed, crashed) become "interrupted"; returns how many.
int markInterruptedSessions(RunStore& store);
/// Every session, newest first.
std::vector<SessionInfo> sessions(RunStore& store);
/// The finished levels of a session, in order.
std::vector<StoredLevel> sessionLevels(RunStore& store, long long sessionId);
/// The raw requests of a level, to recompute any metric.
Result<std::vector<RequestLog>> levelRequests(RunStore& store, long long sessionId, int level);

} // namespace paretoscope
