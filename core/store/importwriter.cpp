#include "core/store/importwriter.h"

#include <sqlite3.h>

#include <algorithm>
#include <unordered_map>

#include <fcntl.h>

#include "core/model/runidentity.h"
#include "core/model/u64set.h"
#include "core/store/contentbuckets.h"
#include "core/store/runcolumns.h"
#include "core/store/sqlite.h"

namespace paretoscope {
namespace {

// rows per INSERT of runs: one statement for several rows saves SQLite's per-statement work (16 x 51 parameters)
constexpr std::size_t kRunRowsPerInsert = 16;

std::string placeholders(std::size_t n)
{
    std::string s;
    for (std::size_t i = 0; i < n; ++i)
        s += i ? ",?" : "?";
    return s;
}

} // namespace

struct ImportWriter::Impl {
    // The content hashes of the records this import stored. They go into their buckets (contentbuckets.h) when the
    // import commits: a million random keys inserted one by one into a B-tree of hashes were a sixth of a large
    // import's time, and a million rows written in order at the commit still half a second on one core.
    std::vector<std::uint64_t> stored;
    sql::Statement findBucket; // prepared only when the store already held records
    sql::Statement writeBucket;
    sql::Statement insertRun;
    sql::Statement insertRunMany; // kRunRowsPerInsert rows
    struct Pending {
        const RunRecord* record;
        long long seriesId;
        std::uint64_t index;
        std::uint64_t hash;
        RunIdentity run;
    };
    std::string sourcePath; // the run of a record without one of its own is this import's (runIdentity)
    sql::Statement restorePrefill; // prepared at the first duplicate whose stored row lacks its prefill side
    std::vector<Pending> pending; // rows of addDeferred() not written yet
    // rows since the store's write-back was last started (Linux): pages SQLite has written for a large import go to
    // disk while the import runs instead of all at once in the commit's fsync
    std::size_t rowsSinceWriteBack = 0;
    sql::Statement insertSeries;
    // the series this import has met, by seriesHash(); each with a record of it to tell colliding hashes apart
    struct KnownSeries {
        RunRecord first; // the record that brought the series in; sameSeries() compares with it
        long long id;
    };
    std::unordered_map<std::uint64_t, std::vector<KnownSeries>> series;
};

ImportWriter::ImportWriter(RunStore& store)
    : m_store(store)
    , m_impl(std::make_unique<Impl>())
{
}

ImportWriter::~ImportWriter()
{
    m_txn.reset(); // rolls back unless committed
    if (m_walFile >= 0)
        ::close(m_walFile); // SQLite keeps no lock on the log file itself, so this descriptor can close any time
    sql::exec(m_store.m_db, "PRAGMA foreign_keys=ON");
    sql::exec(m_store.m_db, RunStore::kReadCacheSizePragma); // the import's smaller cache ends with it
}

Status ImportWriter::start(const Provenance& p)
{
    sqlite3* db = m_store.m_db;
    if (m_store.readOnly())
        return Error { "the store was opened only to read" };
    // 32 MB of page cache holds the content-hash table of a few million stored records for the duplicate lookups;
    // appended pages go out as the import runs. (128 MB was no faster and left more to write at the commit.)
    sql::exec(db, "PRAGMA cache_size=-32768");
    // parents (series, sources) are written by this same writer first, so per-row foreign key lookups are skipped
    // for the import and turned back on afterwards
    sql::exec(db, "PRAGMA foreign_keys=OFF");
    auto txn = WriteTransaction::begin(m_store, "importing " + p.source);
    if (!txn)
        return Error { txn.error() };
    m_txn.emplace(std::move(*txn));
#if defined(__linux__)
    if (const char* file = sqlite3_db_filename(db, "main"); file && *file)
        m_walFile = ::open((std::string(file) + "-wal").c_str(), O_RDONLY | O_CLOEXEC);
#endif
    sql::Statement src(db, "INSERT INTO sources(path, sha256, format, imported_at) VALUES (?,?,?,?)");
    src.bindText(1, p.source);
    src.bindText(2, p.sha256);
    src.bindText(3, p.format);
    src.bind(4, static_cast<std::int64_t>(p.importedAt));
    src.step();
    if (auto st = m_txn->check(src, "cannot record the source"); !st)
        return st;
    m_sourceId = sqlite3_last_insert_rowid(db);
    m_impl->sourcePath = p.source;

    std::string cols = "series_id, source_id, record_index, content_hash";
    for (const RunColumn& c : runColumns())
        cols += std::string(", ") + c.name;
    cols += std::string(", ") + kRunIdentityColumns;
    const std::string row = "(" + placeholders(4 + runColumns().size() + 3) + ")";
    m_impl->insertRun = sql::Statement(db, "INSERT INTO runs(" + cols + ") VALUES " + row);
    std::string rows = row;
    for (std::size_t i = 1; i < kRunRowsPerInsert; ++i)
        rows += "," + row;
    // OR FAIL: a statement of several rows that may stop half-way otherwise keeps a statement journal to undo its
    // own rows, which wrote every page twice; here a failure ends the whole import, and its transaction is rolled back
    m_impl->insertRunMany = sql::Statement(db, "INSERT OR FAIL INTO runs(" + cols + ") VALUES " + rows);
    m_impl->writeBucket = sql::Statement(db,
        "INSERT INTO content_buckets(bucket, hashes) VALUES (?, ?) ON CONFLICT (bucket) DO UPDATE SET hashes = "
        "excluded.hashes");
    sql::Statement any(db, "SELECT EXISTS (SELECT 1 FROM content_buckets)");
    if (any.step() && any.int64(0) != 0)
        m_impl->findBucket = sql::Statement(db, "SELECT hashes FROM content_buckets WHERE bucket = ?");
    m_impl->insertSeries = sql::Statement(db,
        "INSERT INTO series(model, isl, osl, workload, hardware, engine, precision, spec_decoding) "
        "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO UPDATE SET model = excluded.model RETURNING id");
    for (sql::Statement* st :
        { &m_impl->writeBucket, &m_impl->insertRun, &m_impl->insertRunMany, &m_impl->insertSeries }) {
        if (auto checked = m_txn->check(*st, "cannot prepare the import"); !checked)
            return checked;
    }
    if (any.failed())
        return m_txn->check(any, "cannot read the content hashes");
    return ok();
}

RecordKeys RecordKeys::of(const RunRecord& record)
{
    return { paretoscope::contentHash(record), paretoscope::seriesHash(record) };
}

Result<long long> ImportWriter::seriesId(const RunRecord& r, std::uint64_t seriesHash)
{
    std::vector<Impl::KnownSeries>& known = m_impl->series[seriesHash];
    for (const Impl::KnownSeries& k : known)
        if (sameSeries(k.first, r))
            return k.id;
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
    if (!s.step()) {
        if (auto st = m_txn->check(s, "cannot record the series"); !st)
            return Error { st.error() };
        return Error { "cannot record the series: SQLite returned no id" };
    }
    long long id = s.int64(0);
    while (s.step()) { }
    if (auto st = m_txn->check(s, "cannot record the series"); !st)
        return Error { st.error() };
    known.push_back({ r, id });
    return id;
}

// Duplicate or not: a record whose content the store already holds is counted and skipped.
Result<bool> ImportWriter::admit(
    const RunRecord& r, std::uint64_t recordIndex, const RecordKeys& keys, long long& seriesIdOut)
{
    auto sid = seriesId(r, keys.seriesHash);
    if (!sid)
        return Error { sid.error() };
    seriesIdOut = *sid;
    if (sql::Statement& f = m_impl->findBucket; f.valid()) {
        f.rerun();
        f.bind(1, contentbuckets::bucketOf(keys.contentHash));
        const bool stored = f.step() && contentbuckets::contains(f.blobView(0), keys.contentHash);
        if (auto st = m_txn->check(f, "cannot look up record " + std::to_string(recordIndex + 1)); !st)
            return Error { st.error() };
        if (stored) {
            ++m_duplicates;
            if (r.disaggregated && (r.prefillTp > 0 || r.prefillEp > 0))
                if (auto st = restorePrefillSide(r, keys, *sid); !st)
                    return Error { st.error() };
            return false;
        }
    }
    return true;
}

// A disaggregated record the store holds already, stored before prefill and decode were kept apart: its row gets the
// prefill side the file gives (through the series index: the content hash has none).
Status ImportWriter::restorePrefillSide(const RunRecord& r, const RecordKeys& keys, long long seriesId)
{
    sql::Statement& u = m_impl->restorePrefill;
    if (!u.valid())
        u = sql::Statement(m_store.m_db,
            "UPDATE runs SET prefill_tp = ?, prefill_ep = ?, prefill_dp_attention = ?, prefill_workers = ?, "
            "decode_workers = ? WHERE series_id = ? AND content_hash = ? AND prefill_tp IS NULL AND prefill_ep IS "
            "NULL");
    u.rerun();
    u.bindIntOrNull(1, r.prefillTp);
    u.bindIntOrNull(2, r.prefillEp);
    u.bind(3, static_cast<std::int64_t>(r.prefillDpAttention));
    u.bindIntOrNull(4, r.prefillWorkers);
    u.bindIntOrNull(5, r.decodeWorkers);
    u.bind(6, static_cast<std::int64_t>(seriesId));
    u.bind(7, static_cast<std::int64_t>(keys.contentHash));
    u.step();
    return m_txn->check(u, "cannot restore a stored run's prefill side");
}

// Binds pending rows [from, from + count) into the statement for that many rows and runs it. A group that fails is
// written again row by row to name the record, while the transaction is still open; the rows it wrote go with the
// import's rollback. After SQLite has rolled the transaction back itself (a full disk), nothing more is written.
Status ImportWriter::insertRows(std::size_t from, std::size_t count)
{
    if (!m_txn->usable())
        return Error { "the import's transaction has already failed" };
    sql::Statement& s = count == 1 ? m_impl->insertRun : m_impl->insertRunMany;
    s.rerun(); // every column is bound below, NULL included
    int col = 1;
    for (std::size_t i = from; i < from + count; ++i) {
        const Impl::Pending& p = m_impl->pending[i];
        s.bind(col++, static_cast<std::int64_t>(p.seriesId));
        s.bind(col++, static_cast<std::int64_t>(m_sourceId));
        s.bind(col++, static_cast<std::int64_t>(p.index));
        s.bind(col++, static_cast<std::int64_t>(p.hash));
        for (const RunColumn& c : runColumns())
            c.bind(s, col++, *p.record);
        s.bindUncopied(col++, p.run.key);
        s.bind(col++, p.run.order);
        s.bindIntOrNull(col++, p.record->runStarted);
    }
    s.step();
    if (!s.failed()) {
        m_lastRunId = sqlite3_last_insert_rowid(m_store.m_db);
        return ok();
    }
    const std::string first = std::to_string(m_impl->pending[from].index + 1);
    if (count == 1)
        return m_txn->check(s, "cannot store record " + first);
    const std::string range
        = "cannot store records " + first + " to " + std::to_string(m_impl->pending[from + count - 1].index + 1);
    if ((s.errorCode() & 0xff) != SQLITE_CONSTRAINT || !sql::inTransaction(m_store.m_db))
        return m_txn->check(s, range);
    // one of the rows broke a rule of the table and the transaction is still open: write them one by one to name
    // the record; the import fails either way
    const std::string groupError = s.error();
    s.rerun();
    for (std::size_t i = from; i < from + count; ++i)
        if (auto st = insertRows(i, 1); !st)
            return st;
    return m_txn->fail(range + ": " + groupError);
}

Result<bool> ImportWriter::addDeferred(const RunRecord& r, std::uint64_t recordIndex, const RecordKeys& keys)
{
    long long sid = 0;
    auto admitted = admit(r, recordIndex, keys, sid);
    if (!admitted || !*admitted)
        return admitted;
    m_impl->pending.push_back(
        { &r, sid, recordIndex, keys.contentHash, runIdentity(r, m_impl->sourcePath, m_sourceId) });
    m_impl->stored.push_back(keys.contentHash);
    ++m_inserted;
    if (m_impl->pending.size() == kRunRowsPerInsert) {
        if (auto st = flush(); !st)
            return Error { st.error() };
    }
    return true;
}

Status ImportWriter::flush()
{
    std::vector<Impl::Pending>& pending = m_impl->pending;
    std::size_t i = 0;
    Status st = ok();
    for (; st && i + kRunRowsPerInsert <= pending.size(); i += kRunRowsPerInsert)
        st = insertRows(i, kRunRowsPerInsert);
    for (; st && i < pending.size(); ++i)
        st = insertRows(i, 1);
    m_impl->rowsSinceWriteBack += pending.size();
    pending.clear();
#if defined(__linux__)
    constexpr std::size_t kRowsPerWriteBack = 65536; // about 25 MB of pages
    if (st && m_walFile >= 0 && m_impl->rowsSinceWriteBack >= kRowsPerWriteBack) {
        m_impl->rowsSinceWriteBack = 0;
        ::sync_file_range(m_walFile, 0, 0, SYNC_FILE_RANGE_WRITE); // only starts it; never waits
    }
#endif
    return st;
}

Result<bool> ImportWriter::add(const RunRecord& r, std::uint64_t recordIndex, const RecordKeys& keys)
{
    if (auto st = flush(); !st) // rows stay in the order they were given
        return Error { st.error() };
    auto added = addDeferred(r, recordIndex, keys);
    if (!added || !*added)
        return added;
    if (auto st = flush(); !st) // written before the record can go away
        return Error { st.error() };
    return true;
}

Status ImportWriter::setSha256(const std::string& sha256)
{
    if (!m_txn->usable())
        return Error { "the import's transaction has already failed" };
    sql::Statement s(m_store.m_db, "UPDATE sources SET sha256 = ? WHERE id = ?");
    s.bindText(1, sha256);
    s.bind(2, static_cast<std::int64_t>(m_sourceId));
    s.step();
    return m_txn->check(s, "cannot record the source's sha256");
}

Status ImportWriter::commit()
{
    sqlite3* db = m_store.m_db;
    if (!m_txn->usable())
        return m_txn->commit(); // says why it cannot, and rolls back
    if (auto st = flush(); !st)
        return st;
    // ascending as signed numbers: each bucket's hashes (one top 16 bits) are together, and ascending unsigned too
    const std::vector<std::uint64_t> hashes = sortedAsSigned(std::move(m_impl->stored));
    for (std::size_t i = 0; i < hashes.size();) {
        const std::int64_t bucket = contentbuckets::bucketOf(hashes[i]);
        std::size_t end = i + 1;
        while (end < hashes.size() && contentbuckets::bucketOf(hashes[end]) == bucket)
            ++end;
        std::string list;
        if (sql::Statement& f = m_impl->findBucket; f.valid()) {
            f.rerun();
            f.bind(1, bucket);
            if (f.step())
                list = f.blobView(0);
            if (auto st = m_txn->check(f, "cannot read the content hashes"); !st)
                return st;
        }
        list = contentbuckets::merged(list, std::span(hashes).subspan(i, end - i));
        sql::Statement& w = m_impl->writeBucket;
        w.rerun();
        w.bind(1, bucket);
        w.bindBlob(2, list);
        w.step();
        if (auto st = m_txn->check(w, "cannot record the content hashes"); !st)
            return st;
        i = end;
    }
    m_impl->findBucket = sql::Statement();
    m_impl->writeBucket = sql::Statement();
    m_impl->insertRun = sql::Statement();
    m_impl->insertRunMany = sql::Statement();
    m_impl->insertSeries = sql::Statement();
    m_impl->restorePrefill = sql::Statement();
    if (m_inserted == 0) {
        sql::Statement del(db, "DELETE FROM sources WHERE id = ?");
        del.bind(1, static_cast<std::int64_t>(m_sourceId));
        del.step();
        if (auto st = m_txn->check(del, "cannot drop the empty source"); !st)
            return st;
    }
    if (auto st = m_txn->commit(); !st)
        return st;
    if (m_inserted > 0) {
        ++m_store.m_localVersion;
        m_store.resetLogIfIdle();
    }
    return ok();
}

} // namespace paretoscope
