#include "core/store/storerecover.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <optional>

#include "core/store/runstore.h"
#include "core/store/sqlite.h"
#include "core/store/storeschema.h"
#include "core/store/writetransaction.h"

namespace paretoscope {
namespace {

// The tables a store's data lives in, parents first. content_buckets is rebuilt from the runs, not copied. A store
// older than a table (evaluations came with schema 9) has none of it to copy.
constexpr const char* kTables[]
    = { "sources", "series", "runs", "sessions", "session_levels", "evaluations", "sync_state", "sync_log" };

// The schema version that brought a table, for those that came after the first.
int tableSince(std::string_view table)
{
    if (table == "evaluations")
        return 9;
    if (table == "sync_state" || table == "sync_log")
        return 10;
    return 1;
}

std::vector<std::string> columnsOf(sqlite3* db, const std::string& table)
{
    std::vector<std::string> out;
    sql::Statement s(db, "SELECT name FROM pragma_table_info(?)");
    s.bindText(1, table);
    while (s.step())
        out.push_back(s.text(0));
    return out;
}

std::string joined(const std::vector<std::string>& names, const char* prefix = "")
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + std::string(prefix) + n;
    return out;
}

// The first rowid at or after `from` (1 or more) whose page can be read, or none when none can: the search steps over
// a damaged page (or subtree) by probing ever further ahead, then narrows back to the first probe that reads. Ids are
// positive here (every table's rowid counts up from 1), and every step is kept below the largest id.
std::optional<long long> nextReadable(sqlite3* db, const std::string& table, long long from)
{
    constexpr long long kMax = std::numeric_limits<long long>::max();
    sql::Statement probe(db, "SELECT rowid FROM " + table + " WHERE rowid >= ? ORDER BY rowid LIMIT 1");
    auto at = [&](long long p) -> std::optional<std::optional<long long>> { // nullopt: the probe failed
        probe.reset();
        probe.bind(1, static_cast<std::int64_t>(p));
        if (probe.step())
            return std::optional<long long>(probe.int64(0));
        if (probe.failed())
            return std::nullopt;
        return std::optional<long long>(); // read, and nothing is there
    };
    long long failedAt = std::max(from, 1LL), step = 1;
    if (auto found = at(failedAt))
        return *found;
    while (failedAt < kMax) {
        const long long next = step > kMax - failedAt ? kMax : failedAt + step;
        if (auto found = at(next)) {
            // between failedAt (fails) and next (reads): the first probe that reads; both are positive, so hi - lo
            // cannot overflow
            long long lo = failedAt, hi = next;
            std::optional<long long> best = *found;
            while (hi - lo > 1) {
                const long long mid = lo + (hi - lo) / 2;
                if (auto r = at(mid)) {
                    hi = mid;
                    best = *r;
                } else {
                    lo = mid;
                }
            }
            return best;
        }
        failedAt = next;
        step = step > kMax / 2 ? kMax : step * 2;
    }
    return std::nullopt;
}

} // namespace

long long RecoverReport::runsSaved() const
{
    for (const Table& t : tables)
        if (t.name == "runs")
            return t.saved;
    return 0;
}

std::string RecoverReport::text(const std::string& from, const std::string& to) const
{
    std::string out = "recovered " + std::to_string(runsSaved()) + " runs from " + from + " into " + to + "\n";
    for (const Table& t : tables) {
        out += "  " + t.name + ": " + std::to_string(t.saved) + " saved";
        if (t.dropped > 0)
            out += ", " + std::to_string(t.dropped) + " left out (what they belong to could not be read)";
        if (!t.unreadable.empty())
            out += "; unreadable: " + joined(t.unreadable);
        out += "\n";
    }
    if (placeholderSources > 0)
        out += "  " + std::to_string(placeholderSources)
            + " sources could not be read: their runs are kept under a source named \"recovered: source lost\"\n";
    out += "The damaged store is left as it was.\n";
    return out;
}

namespace {

// Copies what can be read of one table, row by row with its ids, past the pages that cannot be read.
Result<RecoverReport::Table> copyTable(
    sqlite3* src, sqlite3* dst, WriteTransaction& txn, const char* table, const std::string& to)
{
    RecoverReport::Table t { table, 0, 0, {} };
    std::vector<std::string> columns;
    const std::vector<std::string> have = columnsOf(src, table);
    for (const std::string& c : columnsOf(dst, table))
        if (std::find(have.begin(), have.end(), c) != have.end())
            columns.push_back(c);
    if (columns.empty()) {
        t.unreadable.emplace_back("the table's columns cannot be read");
        return t;
    }
    std::string marks;
    for (std::size_t i = 0; i <= columns.size(); ++i)
        marks += i ? ",?" : "?";
    sql::Statement read(
        src, "SELECT rowid, " + joined(columns) + " FROM " + std::string(table) + " WHERE rowid >= ? ORDER BY rowid");
    sql::Statement write(
        dst, "INSERT INTO " + std::string(table) + "(rowid, " + joined(columns) + ") VALUES (" + marks + ")");
    if (!read.valid() || !write.valid()) {
        t.unreadable.push_back(read.valid() ? write.prepareError() : read.prepareError());
        return t;
    }
    std::optional<long long> next = 1; // rowids count up from 1
    while (next) {
        read.reset();
        read.bind(1, static_cast<std::int64_t>(*next));
        std::optional<long long> last; // of this pass
        while (read.step()) {
            last = read.int64(0);
            write.reset();
            write.bind(1, static_cast<std::int64_t>(*last));
            for (std::size_t i = 0; i < columns.size(); ++i)
                write.bindValue(static_cast<int>(i) + 2, read, static_cast<int>(i) + 1);
            write.step();
            if (auto st = txn.check(write, "copying " + std::string(table) + " row " + std::to_string(*last)); !st)
                return Error { to + ": " + st.error() };
            ++t.saved;
        }
        if (!read.failed())
            break;
        // each pass moves on: past its last row, or past the first id it could not read
        const long long reached = last ? *last : *next;
        if (reached == std::numeric_limits<long long>::max())
            break;
        const long long after = last ? *last + 1 : *next;
        const bool fromStart = after == 1 && !last;
        next = nextReadable(src, table, last ? after : after + 1);
        if (fromStart && !next)
            t.unreadable.emplace_back("the whole table");
        else
            t.unreadable.push_back(
                "ids " + std::to_string(after) + " to " + (next ? std::to_string(*next - 1) : std::string("the end")));
    }
    return t;
}

// Settles the references of the rows copied: runs without a series dropped, lost sources recreated as placeholders,
// levels without a session dropped, and the content hashes rebuilt from the runs kept.
Status settleReferences(sqlite3* dst, WriteTransaction& txn, RecoverReport& report, const std::string& to)
{
    auto count = [&](const std::string& q) {
        sql::Statement s(dst, q);
        return s.step() ? s.int64(0) : 0;
    };
    auto run = [&](const std::string& q, const std::string& what) -> Status { return txn.exec(q, what); };
    // runs whose series is lost cannot be placed in any scope; their sources may then be left empty
    const long long orphanRuns = count("SELECT count(*) FROM runs WHERE series_id NOT IN (SELECT id FROM series)");
    report.placeholderSources
        = count("SELECT count(*) FROM (SELECT source_id FROM runs WHERE source_id NOT IN "
                "(SELECT id FROM sources) AND series_id IN (SELECT id FROM series) UNION "
                "SELECT source_id FROM evaluations WHERE source_id NOT IN (SELECT id FROM sources))");
    const long long orphanLevels
        = count("SELECT count(*) FROM session_levels WHERE session_id NOT IN (SELECT id FROM sessions)");
    Status st = run("DELETE FROM runs WHERE series_id NOT IN (SELECT id FROM series)", "dropping runs without series");
    if (st)
        st = run("INSERT INTO sources(id, path, sha256, format, imported_at) SELECT source_id, "
                 "'recovered: source lost', '', 'recovered', 0 FROM (SELECT source_id FROM runs WHERE source_id NOT IN "
                 "(SELECT id FROM sources) UNION SELECT source_id FROM evaluations WHERE source_id NOT IN "
                 "(SELECT id FROM sources))",
            "recreating lost sources");
    if (st)
        st = run("DELETE FROM session_levels WHERE session_id NOT IN (SELECT id FROM sessions)",
            "dropping levels without session");
    if (st)
        st = run("UPDATE session_levels SET run_id = NULL WHERE run_id NOT IN (SELECT id FROM runs)",
            "unlinking levels from lost runs");
    if (st) // a store of schema 5 may hold credentials in its URLs
        st = run(kRedactStoredCredentialsSql, "stripping credentials from URLs");
    if (st)
        st = run("DELETE FROM content_buckets", "clearing the content hashes");
    if (st)
        st = run("INSERT INTO content_buckets(bucket, hashes) SELECT (content_hash >> 48) & 65535, "
                 "paretoscope_hash_list(content_hash) FROM runs GROUP BY 1",
            "rebuilding the content hashes");
    if (!st)
        return Error { to + ": " + st.error() };
    for (RecoverReport::Table& t : report.tables) {
        if (t.name == "runs") {
            t.saved -= orphanRuns;
            t.dropped += orphanRuns;
        } else if (t.name == "session_levels") {
            t.saved -= orphanLevels;
            t.dropped += orphanLevels;
        }
    }
    return ok();
}

Result<RecoverReport> recoverInto(const std::string& from, const std::string& to)
{
    auto damaged = sql::openForReading(from);
    if (!damaged)
        return Error { damaged.error() };
    sqlite3* src = damaged->get();
    long long sourceVersion = 0;
    {
        sql::Statement v(src, "PRAGMA user_version");
        const bool read = v.step();
        if (read)
            sourceVersion = v.int64(0);
        if (read && sourceVersion < 5)
            return Error { from + ": schema version " + std::to_string(sourceVersion)
                + " is older than recover reads (5); open it with the Paretoscope that wrote it" };
        if (v.failed())
            return Error { from + ": its header cannot be read, so no table can be found: " + v.error() };
    }
    auto fresh = RunStore::open(to);
    if (!fresh)
        return Error { fresh.error() };
    RunStore& store = **fresh;
    sqlite3* dst = store.handle();
    // rows go in with their ids, parents possibly missing; the references are settled at the end
    sql::exec(dst, "PRAGMA foreign_keys=OFF");
    RecoverReport report;
    {
        auto txn = WriteTransaction::begin(store, "recovering " + from);
        if (!txn)
            return Error { txn.error() };
        for (const char* table : kTables) {
            if (columnsOf(src, table).empty() && sourceVersion < tableSince(table))
                continue; // written before the table was part of the store
            auto t = copyTable(src, dst, *txn, table, to);
            if (!t)
                return Error { t.error() };
            report.tables.push_back(std::move(*t));
        }
        if (auto st = settleReferences(dst, *txn, report, to); !st)
            return Error { st.error() };
        if (auto c = txn->commit(); !c)
            return Error { to + ": " + c.error() };
    }
    sql::exec(dst, "PRAGMA foreign_keys=ON");
    if (const std::string check = store.integrityCheck(); check != "ok")
        return Error { to + ": the recovered store fails its own check: " + check };
    sql::Statement fk(dst, "PRAGMA foreign_key_check");
    if (fk.step())
        return Error { to + ": a reference in table " + fk.text(0) + " has no target after recovery" };
    return report;
}

} // namespace

Result<RecoverReport> recoverStore(const std::string& from, const std::string& to)
{
    std::error_code ec;
    if (std::filesystem::exists(to, ec))
        return Error { to + ": exists already; recover writes a new store" };
    auto report = recoverInto(from, to);
    if (!report) // nothing half-written stays to block the next try
        for (const char* suffix : { "", "-wal", "-shm", "-writer" })
            std::filesystem::remove(to + suffix, ec);
    return report;
}

} // namespace paretoscope
