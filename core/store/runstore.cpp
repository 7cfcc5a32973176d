#include "core/store/runstore.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unordered_map>

#include <unistd.h>

#include "core/store/contentbuckets.h"
#include "core/store/importwriter.h"
#include "core/store/latencypack.h"
#include "core/store/runcolumns.h"
#include "core/store/sqlite.h"
#include "core/store/storeschema.h"
#include "core/store/writetransaction.h"

namespace paretoscope {

int RunStore::currentSchemaVersion()
{
    return static_cast<int>(storeMigrations().size());
}

namespace {

std::string folderOf(const std::string& path)
{
    const std::filesystem::path p = std::filesystem::absolute(path).parent_path();
    return p.empty() ? std::string(".") : p.string();
}

} // namespace

Result<std::unique_ptr<RunStore>> RunStore::open(const std::string& path, StoreAccess access)
{
    // SQLite's allocation statistics take a global mutex on every malloc; nothing here reads them
    static const int configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)configured;
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    if (access == StoreAccess::ReadOnly) {
        if (!exists)
            return Error { path + ": no store here (the file does not exist)" };
        auto ro = openReadOnly(path);
        if (!ro || (*ro)->schemaVersion() >= currentSchemaVersion())
            return ro;
        // an older schema: migrated below by a connection that may write, which is then used to read
        if (::access(path.c_str(), W_OK) != 0 || ::access(folderOf(path).c_str(), W_OK) != 0)
            return Error { path + ": the store has schema " + std::to_string((*ro)->schemaVersion())
                + " of an older Paretoscope and cannot be written here to bring it up to schema "
                + std::to_string(currentSchemaVersion()) + "; open it once where it can be written" };
    }
    if (::access(folderOf(path).c_str(), W_OK) != 0)
        return Error { path + ": cannot write to its folder " + folderOf(path)
            + ", where SQLite keeps the store's journal; commands that only read the store still work" };
    if (exists && ::access(path.c_str(), W_OK) != 0)
        return Error { path + ": the file is read-only; commands that only read the store still work" };
    sqlite3* db = nullptr;
    int rc
        = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db ? sql::errorText(db, sqlite3_extended_errcode(db)) : sqlite3_errstr(rc);
        sqlite3_close(db);
        return Error { path + ": cannot open the store: " + msg };
    }
    std::unique_ptr<RunStore> store(new RunStore(db, path, false));
    // WAL always: readers (ladder, export, the explorer) never wait for a writer, and writers queue behind each other
    // (BusyWaiter). synchronous=NORMAL in WAL mode is still atomic and consistent when the process is killed; it
    // only gives up durability of the last commit on power loss. A large import's WAL is cut back to 64 MB once
    // checkpointed.
    for (const char* pragma : { "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
             "PRAGMA journal_size_limit=67108864", kReadCacheSizePragma }) {
        if (auto st = sql::exec(db, pragma); !st)
            return Error { path + ": " + st.error() };
    }
    if (auto st = store->migrate(currentSchemaVersion()); !st)
        return Error { path + ": " + st.error() };
    return store;
}

Result<std::unique_ptr<RunStore>> RunStore::openReadOnly(const std::string& path)
{
    auto db = sql::openForReading(path);
    if (!db)
        return Error { db.error() };
    std::unique_ptr<RunStore> store(new RunStore(db->release(), path, true));
    sql::exec(store->m_db, kReadCacheSizePragma);
    sql::Statement probe(store->m_db, "PRAGMA user_version");
    probe.step();
    if (!probe.valid() || probe.failed()) {
        if ((probe.errorCode() & 0xff) == SQLITE_NOTADB)
            return Error { path + ": not a Paretoscope store: the file is not an SQLite database" };
        return Error { path + ": cannot read the store: " + (probe.valid() ? probe.error() : probe.prepareError()) };
    }
    const int version = store->schemaVersion();
    if (version > currentSchemaVersion())
        return Error { path + ": the store has schema version " + std::to_string(version) + ", newer than this build ("
            + std::to_string(currentSchemaVersion()) + "); use a newer Paretoscope" };
    return store;
}

Status RunStore::createAtVersion(const std::string& path, int version)
{
    if (version < 1 || version > currentSchemaVersion())
        return Error { "no schema version " + std::to_string(version) };
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return Error { path + ": cannot create" };
    }
    RunStore store(db, path, false);
    if (store.schemaVersion() != 0)
        return Error { path + ": exists already" };
    return store.migrate(version);
}

RunStore::RunStore(sqlite3* db, std::string path, bool readOnly)
    : m_db(db)
    , m_path(std::move(path))
    , m_readOnly(readOnly)
    , m_busy(std::make_unique<BusyWaiter>(m_path))
{
    if (m_db) {
        m_busy->install(m_db);
        addStoreFunctions(m_db);
    }
}

RunStore::~RunStore()
{
    sqlite3_close_v2(m_db);
}

void RunStore::setWaitFn(WaitFn fn, std::function<bool()> keepWaiting)
{
    m_busy->setWaitFn(std::move(fn));
    m_busy->setKeepWaiting(std::move(keepWaiting));
}

void RunStore::setMaxWait(double seconds)
{
    m_busy->setMaxWait(seconds);
}

void RunStore::resetLogIfIdle()
{
    // no waiting here: a reader keeps its snapshot, and this is only worth doing when nobody needs the log
    sqlite3_busy_handler(m_db, nullptr, nullptr);
    sqlite3_wal_checkpoint_v2(m_db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
    m_busy->install(m_db);
}

Status RunStore::readStatus() const
{
    if (m_readError.empty())
        return ok();
    return Error { m_readError };
}

void RunStore::noteRead(const sql::Statement& s)
{
    if (!m_readError.empty())
        return;
    if (!s.valid())
        m_readError = "cannot read " + m_path + ": " + s.prepareError();
    else if (s.failed())
        m_readError = sql::isDamage(s.errorCode()) ? s.error() : "cannot read " + m_path + ": " + s.error();
}

int RunStore::schemaVersion() const
{
    sql::Statement s(m_db, "PRAGMA user_version");
    return s.step() ? static_cast<int>(s.int64(0)) : -1;
}

Status RunStore::migrate(int upTo)
{
    int have = schemaVersion();
    if (have < 0) {
        const int code = sqlite3_extended_errcode(m_db);
        if ((code & 0xff) == SQLITE_NOTADB)
            return Error { "not a Paretoscope store: the file is not an SQLite database" };
        return Error { "cannot read the store: " + sql::errorText(m_db, code) };
    }
    const auto steps = storeMigrations();
    if (have > static_cast<int>(steps.size()))
        return Error { "the store has schema version " + std::to_string(have) + ", newer than this build ("
            + std::to_string(steps.size()) + "); use a newer Paretoscope" };
    if (have >= upTo)
        return ok();
    // a table rebuild (schema 4) must not fire the ON DELETE actions of session_levels, nor check references to a
    // table that is being replaced; the pragma only takes effect outside a transaction
    sql::exec(m_db, "PRAGMA foreign_keys=OFF");
    Status result = ok();
    for (int v = have; result && v < upTo; ++v) {
        const std::string target = "schema " + std::to_string(v + 1);
        auto txn = WriteTransaction::begin(*this, "bringing the store up to " + target);
        if (!txn) {
            result = Error { txn.error() };
            break;
        }
        if (schemaVersion() > v) { // another process migrated it while this one waited for the lock
            txn->rollback();
            continue;
        }
        Status st = txn->exec(steps[static_cast<std::size_t>(v)], "migration to " + target);
        // the GPUs of aggregated InferenceX rows counted again (schema 8), in the last step's transaction: it reads
        // runs with every column this build stores, which the steps after 8 add
        if (st && v + 1 == upTo && have < 8 && upTo >= 8)
            st = recountAggregatedGpus(*txn);
        if (st) {
            sql::Statement check(m_db, "PRAGMA foreign_key_check");
            if (check.step())
                st = Error { "a reference in table " + check.text(0) + " has no target" };
            else if (check.failed())
                st = txn->check(check, "checking references");
        }
        if (st)
            st = txn->exec("PRAGMA user_version=" + std::to_string(v + 1), "recording " + target);
        if (st)
            st = txn->commit();
        if (!st)
            result = Error { "migration to " + target + " failed: " + st.error() };
    }
    sql::exec(m_db, "PRAGMA foreign_keys=ON");
    return result;
}

Status RunStore::recountAggregatedGpus(WriteTransaction& txn)
{
    // InferenceX rows of aggregated runs were counted by the API's num_decode_gpu, which holds tp x ep (64 GPUs for
    // TP8 EP8); InferenceX itself counts tp x pp. The GPU count is part of a point's content hash: recomputed, so
    // that a file imported again finds its rows.
    const auto rows = selectRuns("NOT coalesce(r.disaggregated, 0) AND r.tp > 0 AND so.format IN ('inferencex-api', "
                                 "'inferencex-agg') AND coalesce(r.gpus, 0) <> r.tp * max(coalesce(r.pp, 0), 1)");
    if (auto read = readStatus(); !read)
        return read;
    if (rows.empty())
        return ok();
    sql::Statement update(m_db, "UPDATE runs SET gpus = ?, content_hash = ? WHERE id = ?");
    for (const StoredRun& row : rows) {
        RunRecord r = row.record;
        r.gpus = r.tp * std::max(r.pp, 1);
        update.reset();
        update.bind(1, static_cast<std::int64_t>(r.gpus));
        update.bind(2, static_cast<std::int64_t>(contentHash(r)));
        update.bind(3, static_cast<std::int64_t>(row.id));
        update.step();
        if (auto st = txn.check(update, "counting the GPUs of aggregated InferenceX runs"); !st)
            return st;
    }
    return txn.exec(
        "DELETE FROM content_buckets;\n"
        "INSERT INTO content_buckets(bucket, hashes)\n"
        "  SELECT (content_hash >> 48) & 65535, paretoscope_hash_list(content_hash) FROM runs GROUP BY 1;\n",
        "recording the recomputed content hashes");
}

std::uint64_t RunStore::dataVersion()
{
    sql::Statement s(m_db, "PRAGMA data_version");
    std::uint64_t other = s.step() ? static_cast<std::uint64_t>(s.int64(0)) : 0;
    noteRead(s);
    return (m_localVersion << 32) ^ other;
}

Result<std::unique_ptr<ImportWriter>> RunStore::beginImport(const Provenance& provenance)
{
    std::unique_ptr<ImportWriter> w(new ImportWriter(*this));
    if (auto st = w->start(provenance); !st)
        return Error { m_path + ": " + st.error() };
    return w;
}

Status RunStore::deleteRuns(const std::vector<long long>& ids)
{
    if (ids.empty())
        return ok();
    auto txn = WriteTransaction::begin(*this, "deleting " + std::to_string(ids.size()) + " runs");
    if (!txn)
        return Error { txn.error() };
    // the sources and series these runs belong to are the only ones that can be left empty
    std::vector<long long> sources, series;
    {
        sql::Statement owners(
            m_db, "SELECT DISTINCT source_id, series_id FROM runs WHERE id IN (" + sql::idList(ids) + ")");
        while (owners.step()) {
            sources.push_back(owners.int64(0));
            series.push_back(owners.int64(1));
        }
        if (auto st = txn->check(owners, "finding the runs to delete"); !st)
            return st;
    }
    sql::Statement del(m_db, "DELETE FROM runs WHERE id = ?");
    for (long long id : ids) {
        del.reset();
        del.bind(1, static_cast<std::int64_t>(id));
        del.step();
        if (auto st = txn->check(del, "deleting run " + std::to_string(id)); !st)
            return st;
    }
    // no index on runs.source_id (it would slow every import): one scan per affected source, deletes are rare
    sql::Statement dropSource(
        m_db, "DELETE FROM sources WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM runs WHERE source_id = ?1)");
    sql::Statement dropSeries(
        m_db, "DELETE FROM series WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM runs WHERE series_id = ?1)");
    for (auto [stmt, list] : { std::pair { &dropSource, &sources }, std::pair { &dropSeries, &series } }) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
        for (long long id : *list) {
            stmt->reset();
            stmt->bind(1, static_cast<std::int64_t>(id));
            stmt->step();
            if (auto st = txn->check(*stmt, "cleaning up after the deletion"); !st)
                return st;
        }
    }
    if (auto c = txn->commit(); !c)
        return c;
    ++m_localVersion;
    return ok();
}

std::string RunStore::integrityCheck()
{
    sql::Statement s(m_db, "PRAGMA integrity_check");
    std::string out;
    while (s.step())
        out += (out.empty() ? "" : "; ") + s.text(0);
    if (s.failed() || !s.valid()) // never "" for a check that could not run
        out += (out.empty() ? "" : "; ") + std::string("the check stopped: ")
            + (s.valid() ? s.error() : s.prepareError());
    return out;
}

} // namespace paretoscope
