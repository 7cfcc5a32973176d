#include "core/store/syncstate.h"

#include "core/store/runstore.h"
#include "core/store/sqlite.h"
#include "core/store/writetransaction.h"

namespace paretoscope {

Result<std::map<std::string, SyncMark>> readSyncMarks(RunStore& store, const std::string& source)
{
    sql::Statement q(store.handle(),
        "SELECT model || ' ' || sequence, last_date, history, synced_at FROM sync_state "
        "WHERE source = ?");
    if (!q.valid())
        return Error { store.path() + ": cannot read what was synced: " + q.prepareError() };
    q.bindText(1, source);
    std::map<std::string, SyncMark> out;
    while (q.step())
        out[q.text(0)] = SyncMark { q.text(1), q.int64(2) != 0, q.int64(3) };
    if (q.failed())
        return Error { store.path() + ": cannot read what was synced: " + q.error() };
    return out;
}

Status writeSyncMark(RunStore& store, const std::string& source, const std::string& unit, const SyncMark& mark)
{
    // the unit label is "MODEL SEQUENCE"; the sequence has no space, the model may
    const auto cut = unit.rfind(' ');
    const std::string model = cut == std::string::npos ? unit : unit.substr(0, cut);
    const std::string sequence = cut == std::string::npos ? "" : unit.substr(cut + 1);
    auto txn = WriteTransaction::begin(store, "recording a sync of " + unit);
    if (!txn)
        return Error { txn.error() };
    sql::Statement up(store.handle(),
        "INSERT INTO sync_state (source, model, sequence, last_date, history, synced_at) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (source, model, sequence) DO UPDATE SET last_date = excluded.last_date, "
        "history = excluded.history, synced_at = excluded.synced_at");
    up.bindText(1, source);
    up.bindText(2, model);
    up.bindText(3, sequence);
    up.bindText(4, mark.lastDate);
    up.bind(5, std::int64_t { mark.history ? 1 : 0 });
    up.bind(6, mark.syncedAt);
    up.step();
    if (auto st = txn->check(up, "recording a sync of " + unit); !st)
        return st;
    return txn->commit();
}

Status appendSyncLog(RunStore& store, const SyncLogEntry& entry)
{
    auto txn = WriteTransaction::begin(store, "logging a sync");
    if (!txn)
        return Error { txn.error() };
    sql::Statement ins(
        store.handle(), "INSERT INTO sync_log (source, started_at, finished_at, summary) VALUES (?, ?, ?, ?)");
    ins.bindText(1, entry.source);
    ins.bind(2, entry.startedAt);
    ins.bind(3, entry.finishedAt);
    ins.bindText(4, entry.summary);
    ins.step();
    if (auto st = txn->check(ins, "logging a sync"); !st)
        return st;
    return txn->commit();
}

Result<std::vector<SyncLogEntry>> readSyncLog(RunStore& store, std::int64_t since)
{
    sql::Statement q(store.handle(),
        "SELECT source, started_at, finished_at, summary FROM sync_log WHERE finished_at >= ? ORDER BY id");
    if (!q.valid())
        return Error { store.path() + ": cannot read the sync log: " + q.prepareError() };
    q.bind(1, since);
    std::vector<SyncLogEntry> out;
    while (q.step())
        out.push_back({ q.text(0), q.int64(1), q.int64(2), q.text(3) });
    if (q.failed())
        return Error { store.path() + ": cannot read the sync log: " + q.error() };
    return out;
}

std::vector<std::pair<GroupKey, std::string>> newestRunDates(
    RunStore& store, const std::string& model, int isl, int osl)
{
    sql::Statement q(store.handle(),
        "SELECT s.hardware, s.engine, s.precision, s.spec_decoding, max(r.run_date) FROM series s "
        "JOIN runs r ON r.series_id = s.id WHERE s.model = ? AND s.isl = ? AND s.osl = ? AND r.run_date IS NOT NULL "
        "GROUP BY s.id");
    q.bindText(1, model);
    q.bind(2, std::int64_t { isl });
    q.bind(3, std::int64_t { osl });
    std::vector<std::pair<GroupKey, std::string>> out;
    while (q.step())
        out.emplace_back(GroupKey { q.text(0), q.text(1), q.text(2), q.text(3) }, q.text(4));
    store.noteRead(q);
    return out;
}

} // namespace paretoscope
