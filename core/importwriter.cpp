#include "importwriter.h"

#include <sqlite3.h>

#include <unordered_map>

#include "runcolumns.h"
#include "sqlite.h"

namespace paretoscope {
namespace {

std::string placeholders(std::size_t n)
{
    std::string s;
    for (std::size_t i = 0; i < n; ++i)
        s += i ? ",?" : "?";
    return s;
}

std::string seriesKey(const RunRecord& r)
{
    std::string k;
    for (const std::string* s : { &r.model, &r.workload, &r.hardware, &r.engine, &r.precision, &r.specDecoding }) {
        k += *s;
        k += '\x1f';
    }
    k += std::to_string(r.isl) + "/" + std::to_string(r.osl);
    return k;
}

} // namespace

struct ImportWriter::Impl {
    sql::Statement insertContent;
    sql::Statement insertRun;
    sql::Statement insertSeries;
    std::unordered_map<std::string, long long> series;
};

ImportWriter::ImportWriter(RunStore& store)
    : m_store(store)
    , m_impl(std::make_unique<Impl>())
{
}

ImportWriter::~ImportWriter()
{
    if (m_open)
        sql::exec(m_store.m_db, "ROLLBACK");
    if (m_rollbackJournal)
        sql::exec(m_store.m_db, "PRAGMA journal_mode=WAL");
    sql::exec(m_store.m_db, "PRAGMA synchronous=NORMAL");
    sql::exec(m_store.m_db, "PRAGMA foreign_keys=ON");
}

namespace {

std::string journalMode(sqlite3* db, const char* pragma)
{
    sql::Statement s(db, pragma);
    return s.step() ? s.text(0) : std::string();
}

} // namespace

Status ImportWriter::start(const Provenance& p)
{
    sqlite3* db = m_store.m_db;
    // a large page cache keeps the content-hash index in memory while a big file streams in
    sql::exec(db, "PRAGMA cache_size=-131072");
    // parents (series, sources) are written by this same writer first, so per-row foreign key lookups are skipped
    // for the import and turned back on afterwards
    sql::exec(db, "PRAGMA foreign_keys=OFF");
    // In WAL mode every page of a large import is written twice: into the WAL, then by the checkpoint into the
    // database. When no other connection has the store open, the import runs with a rollback journal instead, which
    // for appended pages holds next to nothing, so each page is written once; a killed import is rolled back from
    // that journal on the next open just as from the WAL. With another connection open the switch is refused and
    // the import stays in WAL mode.
    m_rollbackJournal = journalMode(db, "PRAGMA journal_mode=DELETE") == "delete";
    if (m_rollbackJournal)
        sql::exec(db, "PRAGMA synchronous=FULL"); // NORMAL is only safe against power loss in WAL mode
    if (auto st = sql::exec(db, "BEGIN IMMEDIATE"); !st)
        return Error { "cannot start a write transaction: " + st.error() };
    m_open = true;
    sql::Statement src(db, "INSERT INTO sources(path, sha256, format, imported_at) VALUES (?,?,?,?)");
    src.bindText(1, p.source);
    src.bindText(2, p.sha256);
    src.bindText(3, p.format);
    src.bind(4, static_cast<std::int64_t>(p.importedAt));
    src.step();
    if (src.failed())
        return Error { "cannot record the source: " + src.error() };
    m_sourceId = sqlite3_last_insert_rowid(db);

    std::string cols = "series_id, source_id, record_index, content_hash";
    for (const RunColumn& c : runColumns())
        cols += std::string(", ") + c.name;
    m_impl->insertRun
        = sql::Statement(db, "INSERT INTO runs(" + cols + ") VALUES (" + placeholders(4 + runColumns().size()) + ")");
    m_impl->insertContent = sql::Statement(db, "INSERT INTO run_content(hash) VALUES (?) ON CONFLICT DO NOTHING");
    m_impl->insertSeries = sql::Statement(db,
        "INSERT INTO series(model, isl, osl, workload, hardware, engine, precision, spec_decoding) "
        "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO UPDATE SET model = excluded.model RETURNING id");
    for (sql::Statement* st : { &m_impl->insertContent, &m_impl->insertRun }) {
        if (!st->valid())
            return Error { st->prepareError() };
    }
    if (!m_impl->insertSeries.valid())
        return Error { m_impl->insertSeries.prepareError() };
    return ok();
}

RecordKeys RecordKeys::of(const RunRecord& record)
{
    return { paretoscope::contentHash(record), seriesKey(record) };
}

Result<long long> ImportWriter::seriesId(const RunRecord& r, const std::string& key)
{
    if (auto it = m_impl->series.find(key); it != m_impl->series.end())
        return it->second;
    sql::Statement& s = m_impl->insertSeries;
    s.reset();
    s.bindText(1, r.model);
    s.bind(2, static_cast<std::int64_t>(r.isl));
    s.bind(3, static_cast<std::int64_t>(r.osl));
    s.bindText(4, r.workload);
    s.bindText(5, r.hardware);
    s.bindText(6, r.engine);
    s.bindText(7, r.precision);
    s.bindText(8, r.specDecoding);
    if (!s.step())
        return Error { "cannot record the series: " + s.error() };
    long long id = s.int64(0);
    while (s.step()) { }
    m_impl->series.emplace(key, id);
    return id;
}

Result<bool> ImportWriter::add(const RunRecord& r, std::uint64_t recordIndex, const RecordKeys& keys)
{
    auto sid = seriesId(r, keys.series);
    if (!sid)
        return Error { sid.error() };
    const auto hash = static_cast<std::int64_t>(keys.contentHash);
    sql::Statement& c = m_impl->insertContent;
    c.rerun();
    c.bind(1, hash);
    c.step();
    if (c.failed())
        return Error { "cannot store record " + std::to_string(recordIndex + 1) + ": " + c.error() };
    if (sqlite3_changes(m_store.m_db) == 0) {
        ++m_duplicates;
        return false;
    }
    sql::Statement& s = m_impl->insertRun;
    s.rerun(); // every column is bound below, NULL included
    s.bind(1, static_cast<std::int64_t>(*sid));
    s.bind(2, static_cast<std::int64_t>(m_sourceId));
    s.bind(3, static_cast<std::int64_t>(recordIndex));
    s.bind(4, hash);
    int col = 5;
    for (const RunColumn& c : runColumns())
        c.bind(s, col++, r);
    s.step();
    if (s.failed())
        return Error { "cannot store record " + std::to_string(recordIndex + 1) + ": " + s.error() };
    ++m_inserted;
    return true;
}

void ImportWriter::setSha256(const std::string& sha256)
{
    sql::Statement s(m_store.m_db, "UPDATE sources SET sha256 = ? WHERE id = ?");
    s.bindText(1, sha256);
    s.bind(2, static_cast<std::int64_t>(m_sourceId));
    s.step();
}

Status ImportWriter::commit()
{
    sqlite3* db = m_store.m_db;
    m_impl->insertContent = sql::Statement();
    m_impl->insertRun = sql::Statement();
    m_impl->insertSeries = sql::Statement();
    if (m_inserted == 0) {
        sql::Statement del(db, "DELETE FROM sources WHERE id = ?");
        del.bind(1, static_cast<std::int64_t>(m_sourceId));
        del.step();
    }
    if (auto st = sql::exec(db, "COMMIT"); !st)
        return Error { "commit failed: " + st.error() };
    m_open = false;
    if (m_rollbackJournal && journalMode(db, "PRAGMA journal_mode=WAL") == "wal")
        m_rollbackJournal = false;
    sql::exec(db, "PRAGMA synchronous=NORMAL");
    if (m_inserted > 0)
        ++m_store.m_localVersion;
    return ok();
}

} // namespace paretoscope
