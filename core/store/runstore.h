#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/result.h"
#include "core/model/runpoint.h"
#include "core/model/runrecord.h"
#include "core/model/runselection.h"
#include "core/model/scope.h"
#include "core/model/storedrun.h"
#include "core/store/storelock.h"

struct sqlite3;

namespace paretoscope {
namespace sql {
class Statement;
}

class ImportWriter;
class WriteTransaction;

/// The scope's service-level limits (Scope::ttftMax on its ttftStat, Scope::tpotMax) as SQL conditions on the runs
/// table (columns prefixed with `table.` when table is not empty), each starting with " AND "; empty without a limit,
/// so that a query without limits is the query it always was. A run without the statistic does not meet a limit;
/// median TPOT is the stored one, else 1 / interactivity. Every query below that reads a scope applies them, as the
/// date range, before the run selection (Scope::runs): Latest keeps per configuration its latest run that meets them.
std::string sloCondition(const Scope& scope, std::string_view table);

/// How a store is opened: for writing (created when missing, migrated forward), or only to read, which never writes
/// and works in a folder that cannot be written.
enum class StoreAccess { ReadWrite, ReadOnly };

/// The SQLite store of run records (schema versioned with PRAGMA user_version, WAL, all-or-nothing per source).
class RunStore {
public:
    /// SQLite's page cache for the store's connection: 128 MB, allocated only as pages are read, so that reloading a
    /// large scope after a change (frontiers of a million-run store) is served from memory: a scope's runs lie
    /// among all the others, and at 1,000,000 runs a cold ladder took 266 ms with 64 MB, 177 ms with 128 MB. An import
    /// uses 32 MB while it runs (importwriter.cpp) and sets this back when it ends.
    static constexpr const char* kReadCacheSizePragma = "PRAGMA cache_size=-131072";
    /// Opens or creates the store at path and migrates it forward. A newer schema than this build knows is refused.
    /// ReadOnly opens an existing store without writing to it; one of an older schema is migrated first where the
    /// file can be written, and refused, saying so, where it cannot.
    static Result<std::unique_ptr<RunStore>> open(const std::string& path, StoreAccess access = StoreAccess::ReadWrite);
    /// Creates a store at path with the schema of an older version (1 up to the current one) and closes it: for
    /// tests of the migrations, which then fill it in that version's layout and open it.
    static Status createAtVersion(const std::string& path, int version);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    /// The schema version this build writes.
    static int currentSchemaVersion();
    int schemaVersion() const;
    const std::string& path() const { return m_path; }
    bool readOnly() const { return m_readOnly; }

    /// Told every few seconds while a write waits for another writer of the store (storelock.h); without one, a
    /// write waits silently for as long as the other writer holds the store.
    /// keepWaiting, when given, is asked at every retry: false gives the wait up at once (a Cancel button).
    void setWaitFn(WaitFn fn, std::function<bool()> keepWaiting = {});
    /// Makes a write give up after waiting this long for another writer (for a connection that must stay
    /// responsive, as the explorer's window's); unlimited by default.
    void setMaxWait(double seconds);

    /// The first read since the store was opened, or since clearReadError(), that failed: a damaged file ("the store
    /// is damaged: ... (run `paretoscope-cli check --db FILE`)"), an I/O error. The read methods below return what
    /// they could read and record the failure here: a caller checks it before it shows an answer.
    Status readStatus() const;
    void clearReadError() { m_readError.clear(); }
    /// Records the statement's failure, if any, as readStatus() reports it.
    void noteRead(const sql::Statement& statement);
    /// Starts the one transaction in which a source's records are written.
    Result<std::unique_ptr<ImportWriter>> beginImport(const Provenance& provenance);

    /// Changes whenever runs are added or deleted, by this connection or another one.
    std::uint64_t dataVersion();

    /// Every (model, isl, osl, workload) with runs.
    std::vector<ScopeSummary> scopes();
    /// The models the store holds series of, as stored (keys such as dsr1).
    std::vector<std::string> models();
    /// The series inside a scope, filters applied.
    std::vector<Series> series(const Scope& scope);
    /// Points of the given series with positive x and y (others cannot be on a frontier), inside the scope's dates,
    /// among the runs the scope selects (Scope::runs, Scope::asOf); marked runs only when the scope includes them.
    std::vector<Point> points(const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates = {});
    /// What a chart needs of each run of the given series, inside the scope's dates, among the runs it selects.
    std::vector<RunPoint> runPoints(
        const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates = {});
    /// Every run of the given series inside the scope's dates, whatever its run selection and as-of date, with each
    /// run's version: what selecting as of any date (history, spread) is done on, in memory.
    std::vector<TimedRun> timedRuns(const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates);
    /// Aggregates of the given series' runs inside the scope's dates (marked runs only when the scope includes
    /// them). Median TTFT under ttftFloor or median TPOT under tpotFloor (seconds) counts as suspect.
    RunStats runStats(const std::vector<long long>& seriesIds, TputMetric metric, const Scope& dates, double ttftFloor,
        double tpotFloor);
    /// Full records by id, in the order given (ids not found are skipped).
    std::vector<StoredRun> runs(const std::vector<long long>& ids);
    /// All runs of the given series the scope selects (at most `limit` when above 0, inside the scope's dates).
    std::vector<StoredRun> runsOfSeries(
        const std::vector<long long>& seriesIds, const Scope& dates = {}, std::size_t limit = 0);
    /// A page of the runs of the given series inside the scope's dates: those with an id above afterId, by id, at
    /// most limit (the next page starts after the last id of this one). Every run, whatever the scope selects.
    std::vector<StoredRun> runsOfSeriesPage(
        const std::vector<long long>& seriesIds, const Scope& dates, long long afterId, std::size_t limit);
    /// Number of runs of the given series inside the scope's dates (what runsOfSeriesPage pages through).
    long long runCountOfSeries(const std::vector<long long>& seriesIds, const Scope& dates = {});
    /// Every stored run, by id.
    std::vector<StoredRun> allRuns();
    /// Number of runs stored.
    long long runCount();
    /// Deletes runs (and series and sources left empty) in one transaction.
    Status deleteRuns(const std::vector<long long>& ids);
    /// PRAGMA integrity_check: "ok" or the problems found.
    std::string integrityCheck();
    /// The content hashes the store holds for finding duplicates, ascending (unsigned): one per stored run.
    std::vector<std::uint64_t> storedContentHashes();

    sqlite3* handle() { return m_db; }

    /// After a large write: copies what the write-ahead log holds into the store's file and empties the log, unless
    /// a reader is using it (then the next writer resets it). A million-run import leaves some 500 MB of log, which
    /// a long-lived connection (the explorer's) would otherwise keep on disk, and look every page up in, until the
    /// next write.
    void resetLogIfIdle();

private:
    RunStore(sqlite3* db, std::string path, bool readOnly);
    static Result<std::unique_ptr<RunStore>> openReadOnly(const std::string& path);
    Status migrate(int upTo);
    Status recountAggregatedGpus(WriteTransaction& txn); // part of the migration to schema 8
    /// `where` may use ?1, ?2... for the texts in `binds`, bound in that order.
    std::vector<StoredRun> selectRuns(const std::string& where, const std::vector<std::string>& binds = {});

    sqlite3* m_db;
    std::string m_path;
    bool m_readOnly = false;
    std::unique_ptr<BusyWaiter> m_busy;
    std::string m_readError;
    std::uint64_t m_localVersion = 0;
    friend class ImportWriter;

    /// The scope's service-level limits (Scope::ttftMax on its ttftStat, Scope::tpotMax) as SQL conditions on the runs
    /// table (columns prefixed with `table.` when table is not empty), each starting with " AND "; empty without a
    /// limit, so that a query without limits is the query it always was. A run without the statistic does not meet a
    /// limit; median TPOT is the stored one, else 1 / interactivity. Every query below that reads a scope applies them,
    /// as the date range, before the run selection (Scope::runs): Latest keeps per configuration its latest run that
    /// meets them.
    std::string sloCondition(const Scope& scope, std::string_view table);
};

} // namespace paretoscope
