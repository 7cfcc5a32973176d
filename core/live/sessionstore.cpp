#include "core/live/sessionstore.h"

#include <cerrno>
#include <csignal>
#include <sqlite3.h>
#include <unistd.h>

#include "core/live/requestcodec.h"
#include "core/model/runselection.h"
#include "core/model/sha256.h"
#include "core/model/urls.h"
#include "core/store/importwriter.h"
#include "core/store/sqlite.h"

namespace paretoscope {

namespace {

bool processAlive(long long pid)
{
    if (pid <= 0)
        return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

} // namespace

Result<long long> createSession(RunStore& store, const SessionConfig& config, const std::string& simulation)
{
    sql::Statement s(store.handle(),
        "INSERT INTO sessions(started_at, status, pid, simulation, config) VALUES (?, 'running', ?, ?, ?)");
    s.bind(1, nowEpochSeconds());
    s.bind(2, static_cast<std::int64_t>(::getpid()));
    s.bindText(3, simulation);
    SessionConfig stored = config;
    stored.endpoint = redactUrl(config.endpoint); // credentials in the URL stay in memory only
    s.bindText(4, sessionConfigJson(stored));
    s.step();
    if (s.failed())
        return Error { store.path() + ": cannot start a session: " + s.error() };
    return static_cast<long long>(sqlite3_last_insert_rowid(store.handle()));
}

Result<long long> storeLevel(RunStore& store, long long sessionId, int level, int concurrency, const RunRecord& record,
    const std::string& metricsJson, const std::vector<RequestLog>& requests)
{
    std::string raw = encodeRequests(requests);
    // the level's run is its session ("session:ID", from the source below), which started when the session did
    RunRecord stored = record;
    completeConfiguration(stored);
    {
        sql::Statement started(store.handle(), "SELECT started_at FROM sessions WHERE id = ?");
        started.bind(1, static_cast<std::int64_t>(sessionId));
        if (started.step())
            stored.runStarted = started.int64(0);
    }
    Provenance p = record.provenance;
    p.source = "session:" + std::to_string(sessionId);
    p.format = "live-session";
    p.importedAt = nowEpochSeconds();
    p.sha256 = Sha256::of(raw);
    auto writer = store.beginImport(p);
    if (!writer)
        return Error { writer.error() };
    RecordKeys keys = RecordKeys::of(stored);
    auto added = (*writer)->add(stored, static_cast<std::uint64_t>(level), keys);
    if (!added)
        return Error { "session " + std::to_string(sessionId) + ", level " + std::to_string(level) + ": "
            + added.error() };
    long long runId = *added ? (*writer)->lastRunId() : 0;
    if (!*added) { // the same record was already stored (rare for a live level): find it
        sql::Statement find(store.handle(), "SELECT id FROM runs WHERE content_hash = ?");
        find.bind(1, static_cast<std::int64_t>(keys.contentHash));
        if (find.step())
            runId = find.int64(0);
        if (auto st = (*writer)->transaction().check(find, "cannot find the level's run"); !st)
            return Error { "session " + std::to_string(sessionId) + ", level " + std::to_string(level) + ": "
                + st.error() };
    }
    sql::Statement ins(store.handle(),
        "INSERT INTO session_levels(session_id, level, concurrency, run_id, finished_at, metrics, requests) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)");
    ins.bind(1, static_cast<std::int64_t>(sessionId));
    ins.bind(2, static_cast<std::int64_t>(level));
    ins.bind(3, static_cast<std::int64_t>(concurrency));
    ins.bindIntOrNull(4, runId);
    ins.bind(5, nowEpochSeconds());
    ins.bindText(6, metricsJson);
    ins.bindBlob(7, raw);
    ins.step();
    if (auto st = (*writer)->transaction().check(ins, "cannot store the level"); !st)
        return Error { "session " + std::to_string(sessionId) + ", level " + std::to_string(level) + ": "
            + st.error() };
    if (auto st = (*writer)->commit(); !st)
        return Error { st.error() };
    return runId;
}

Status updateSession(RunStore& store, long long sessionId, const SessionConfig& config, const std::string& simulation)
{
    SessionConfig stored = config;
    stored.endpoint = redactUrl(config.endpoint);
    sql::Statement s(store.handle(), "UPDATE sessions SET config = ?, simulation = ? WHERE id = ?");
    s.bindText(1, sessionConfigJson(stored));
    s.bindText(2, simulation);
    s.bind(3, static_cast<std::int64_t>(sessionId));
    s.step();
    if (s.failed())
        return Error { store.path() + ": cannot update session " + std::to_string(sessionId) + ": " + s.error() };
    return ok();
}

Status finishSession(RunStore& store, long long sessionId, const std::string& status, const std::string& reason)
{
    sql::Statement s(store.handle(), "UPDATE sessions SET status = ?, reason = ?, finished_at = ? WHERE id = ?");
    s.bindText(1, status);
    s.bindText(2, reason);
    s.bind(3, nowEpochSeconds());
    s.bind(4, static_cast<std::int64_t>(sessionId));
    s.step();
    if (s.failed())
        return Error { store.path() + ": cannot close session " + std::to_string(sessionId) + ": " + s.error() };
    return ok();
}

Status noteLevelsRecovered(RunStore& store, long long sessionId, int levels)
{
    sql::Statement s(
        store.handle(), "UPDATE sessions SET reason = ? WHERE id = ? AND reason LIKE '%measured but not stored%'");
    s.bindText(1,
        std::to_string(levels)
            + " level(s) the store could not take at first were stored later from the "
              "session's own file");
    s.bind(2, static_cast<std::int64_t>(sessionId));
    s.step();
    if (s.failed())
        return Error { store.path() + ": session " + std::to_string(sessionId) + ": " + s.error() };
    return ok();
}

int markInterruptedSessions(RunStore& store)
{
    std::vector<long long> gone;
    {
        sql::Statement s(store.handle(), "SELECT id, pid FROM sessions WHERE status = 'running'");
        while (s.step())
            if (!processAlive(s.int64(1)) || s.int64(1) == ::getpid())
                gone.push_back(s.int64(0));
    }
    for (long long id : gone)
        finishSession(store, id, "interrupted", "the session's process ended before the sweep did (killed or crashed)");
    return static_cast<int>(gone.size());
}

std::vector<SessionInfo> sessions(RunStore& store)
{
    std::vector<SessionInfo> out;
    sql::Statement s(store.handle(),
        "SELECT id, started_at, finished_at, status, reason, simulation, config, "
        "(SELECT COUNT(*) FROM session_levels l WHERE l.session_id = sessions.id), pid FROM sessions ORDER BY id DESC");
    while (s.step()) {
        SessionInfo i;
        i.id = s.int64(0);
        i.startedAt = s.int64(1);
        i.finishedAt = s.isNull(2) ? 0 : s.int64(2);
        i.status = s.text(3);
        i.reason = s.text(4);
        // a reader does not write: a session whose process is gone reads as interrupted until a writer records it
        if (i.status == "running" && !processAlive(s.int64(8))) {
            i.status = "interrupted";
            i.reason = "the session's process ended before the sweep did (killed or crashed)";
        }
        i.simulation = s.text(5);
        if (auto c = parseSessionConfig(s.text(6), "session " + std::to_string(i.id)))
            i.config = *c;
        i.levels = static_cast<int>(s.int64(7));
        out.push_back(std::move(i));
    }
    store.noteRead(s);
    return out;
}

std::vector<StoredLevel> sessionLevels(RunStore& store, long long sessionId)
{
    std::vector<StoredLevel> out;
    sql::Statement s(store.handle(),
        "SELECT level, concurrency, run_id, metrics FROM session_levels WHERE session_id = ? ORDER BY level");
    s.bind(1, static_cast<std::int64_t>(sessionId));
    while (s.step())
        out.push_back(
            { static_cast<int>(s.int64(0)), static_cast<int>(s.int64(1)), s.isNull(2) ? 0 : s.int64(2), s.text(3) });
    store.noteRead(s);
    return out;
}

Result<std::vector<RequestLog>> levelRequests(RunStore& store, long long sessionId, int level)
{
    sql::Statement s(store.handle(), "SELECT requests FROM session_levels WHERE session_id = ? AND level = ?");
    s.bind(1, static_cast<std::int64_t>(sessionId));
    s.bind(2, static_cast<std::int64_t>(level));
    std::string name = "session " + std::to_string(sessionId) + ", level " + std::to_string(level);
    if (!s.step()) {
        store.noteRead(s);
        if (auto read = store.readStatus(); !read)
            return Error { name + ": " + read.error() };
        return Error { name + ": not in the store" };
    }
    return decodeRequests(s.blob(0), name);
}

} // namespace paretoscope
