// The store's schema: migrations from every older schema keep every value, and the packed formats it keeps
// (latency statistics, content-hash buckets) byte for byte.
#include <QtTest>

#include <bit>
#include <limits>
#include <random>
#include <set>
#include <sqlite3.h>

#include "core/import/importer.h"
#include "core/store/contentbuckets.h"
#include "core/store/latencypack.h"
#include "core/store/sqlite.h"
#include "tests/support/storequeries.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

// Writes runs into a store created at schema 1, 2 or 3, in the runs layout those versions share (every latency
// statistic a column), with their content hashes where the version keeps them, and for schema 3 a live-session level
// that refers to the first run.
void writeOldRuns(const QString& db, const std::vector<RunRecord>& runs, int version)
{
    sqlite3* h = nullptr;
    QCOMPARE(sqlite3_open(db.toUtf8().constData(), &h), SQLITE_OK);
    // closed when this returns, after the statements below are finalized (they are destroyed first)
    const std::unique_ptr<sqlite3, int (*)(sqlite3*)> closer(h, sqlite3_close_v2);
    QVERIFY(sql::exec(h, "BEGIN; INSERT INTO sources(path, sha256, format, imported_at) VALUES ('old', '', 'x', 0)"));
    sql::Statement series(h,
        "INSERT INTO series(model, isl, osl, workload, hardware, engine, precision, spec_decoding) "
        "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO UPDATE SET model = excluded.model RETURNING id");
    const char* stats[] = { "mean", "median", "p90", "p99", "p999" };
    std::string cols = "series_id, source_id, record_index, content_hash, engine_image, tp, ep, pp, dp_attention, "
                       "disaggregated, prefill_gpus, decode_gpus, gpus, concurrency, run_date, run_url, tput_per_gpu, "
                       "output_tput_per_gpu, input_tput_per_gpu, interactivity";
    for (const char* m : { "ttft", "tpot", "itl", "e2el" })
        for (const char* st : stats)
            cols += std::string(", ") + m + "_" + st + "_s";
    cols += ", avg_power_w, completed, failed, note";
    std::string marks = "?";
    for (char ch : cols)
        if (ch == ',')
            marks += ",?";
    sql::Statement run(h, "INSERT INTO runs(" + cols + ") VALUES (" + marks + ")");
    QVERIFY2(run.valid(), run.prepareError().c_str());
    sql::Statement content(h, "INSERT INTO run_content(hash) VALUES (?)");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunRecord& r = runs[i];
        series.reset();
        series.bindText(1, r.model);
        series.bind(2, static_cast<std::int64_t>(r.isl));
        series.bind(3, static_cast<std::int64_t>(r.osl));
        series.bindText(4, r.workload);
        series.bindText(5, r.hardware);
        series.bindText(6, r.engine);
        series.bindText(7, r.precision);
        series.bindText(8, r.specDecoding);
        QVERIFY(series.step());
        const std::int64_t seriesId = series.int64(0);
        while (series.step()) { }
        run.reset();
        int c = 1;
        run.bind(c++, seriesId);
        run.bind(c++, std::int64_t { 1 });
        run.bind(c++, static_cast<std::int64_t>(i));
        run.bind(c++, static_cast<std::int64_t>(contentHash(r)));
        run.bind(c++, std::string_view(r.engineImage));
        for (int v : { r.tp, r.ep, r.pp })
            run.bindIntOrNull(c++, v);
        run.bind(c++, static_cast<std::int64_t>(r.dpAttention));
        run.bind(c++, static_cast<std::int64_t>(r.disaggregated));
        for (int v : { r.prefillGpus, r.decodeGpus, r.gpus, r.concurrency })
            run.bindIntOrNull(c++, v);
        run.bind(c++, std::string_view(r.runDate));
        run.bind(c++, std::string_view(r.runUrl));
        for (const auto& v : { r.tputPerGpu, r.outputTputPerGpu, r.inputTputPerGpu, r.interactivity })
            run.bind(c++, v);
        for (const LatencyStats* m : { &r.ttft, &r.tpot, &r.itl, &r.e2el })
            for (const auto& v : { m->mean, m->median, m->p90, m->p99, m->p999 })
                run.bind(c++, v);
        run.bind(c++, r.avgPowerW);
        run.bind(c++, r.completed);
        run.bind(c++, r.failed);
        run.bind(c++, std::string_view(r.provenance.note));
        QCOMPARE(c, 45);
        run.step();
        QVERIFY2(!run.failed(), run.error().c_str());
        if (version >= 2) {
            content.reset();
            content.bind(1, static_cast<std::int64_t>(contentHash(r)));
            content.step();
            QVERIFY(!content.failed());
        }
    }
    if (version == 1)
        QVERIFY(sql::exec(h, "CREATE UNIQUE INDEX IF NOT EXISTS runs_content ON runs(content_hash)"));
    if (version >= 3)
        QVERIFY(sql::exec(h,
            "INSERT INTO sessions(started_at, status, pid, config) VALUES (0, 'finished', 1, '{}');"
            "INSERT INTO session_levels(session_id, level, concurrency, run_id, finished_at, metrics, requests) "
            "VALUES (1, 0, 1, (SELECT min(id) FROM runs), 0, '{}', x'')"));
    QVERIFY(sql::exec(h, "COMMIT"));
}
} // namespace

class TestStoreSchema : public QObject {
    Q_OBJECT
private slots:
    void migratesOlderStores_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("1: duplicates found by a unique index") << 1;
        QTest::newRow("2: no live-session tables") << 2;
        QTest::newRow("3: every latency statistic a column") << 3;
    }

    void migratesOlderStores()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        // the runs: the API rows (medians only) and the aggregate files (every statistic), read through a store
        std::vector<RunRecord> runs;
        {
            auto scratch = openTempStore(dir, QStringLiteral("scratch.sqlite"));
            QCOMPARE(importPath(*scratch, fixture(kApi).toStdString(), {})[0].result->imported, 435u);
            importPath(*scratch, fixture(QStringLiteral("inferencex-agg")).toStdString(), {});
            for (const StoredRun& r : scratch->allRuns())
                runs.push_back(r.record);
        }
        const auto withTails = std::count_if(runs.begin(), runs.end(), [](const RunRecord& r) { return r.e2el.p999; });
        QVERIFY(withTails >= 3 && withTails < static_cast<long>(runs.size()));

        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        QVERIFY(RunStore::createAtVersion(db.toStdString(), version).ok());
        QCOMPARE(scalar(db, "PRAGMA user_version"), version);
        writeOldRuns(db, runs, version);

        auto s = openTempStore(dir);
        QVERIFY(s);
        QCOMPARE(s->schemaVersion(), RunStore::currentSchemaVersion());
        QCOMPARE(QString::fromStdString(s->integrityCheck()), QStringLiteral("ok"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'runs_content'"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('sessions', 'session_levels')"), 2);
        QCOMPARE(
            scalar(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('runs_series', 'runs_release_content')"), 2);
        QCOMPARE(scalar(db, "SELECT count(*) FROM pragma_table_info('runs') WHERE name LIKE '%_p99_s'"), 0);
        QCOMPARE(s->storedContentHashes().size(), runs.size());
        QVERIFY(s->storedContentHashes() == runHashes(*s));
        QCOMPARE(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'run_content'"), 0);

        // every run keeps every value, each latency statistic bit for bit, absent ones absent
        const auto migrated = s->allRuns();
        QCOMPARE(migrated.size(), runs.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const RunRecord& was = runs[i];
            const RunRecord& is = migrated[i].record;
            QCOMPARE(contentHash(is), contentHash(was));
            // a disaggregated run stored before the prefill side was kept apart says so after its own note
            QVERIFY(is.provenance.note.starts_with(was.provenance.note));
            QCOMPARE(is.provenance.note.find("prefill side not recorded") != std::string::npos, was.disaggregated);
            for (LatencyStats RunRecord::*m : { &RunRecord::ttft, &RunRecord::tpot, &RunRecord::itl, &RunRecord::e2el })
                for (std::optional<double> LatencyStats::*st : { &LatencyStats::mean, &LatencyStats::median,
                         &LatencyStats::p90, &LatencyStats::p99, &LatencyStats::p999 }) {
                    QCOMPARE(((is.*m).*st).has_value(), ((was.*m).*st).has_value());
                    if ((was.*m).*st)
                        QCOMPARE(std::bit_cast<std::uint64_t>(*((is.*m).*st)),
                            std::bit_cast<std::uint64_t>(*((was.*m).*st)));
                }
        }
        // the migrated hashes still find every record a duplicate
        QCOMPARE(importPath(*s, fixture(kApi).toStdString(), {})[0].result->duplicates, 435u);
        if (version >= 3)
            QCOMPARE(scalar(db, "SELECT run_id FROM session_levels"), migrated.front().id);
        // deleting runs releases their hashes and clears the session level's reference to its run
        std::vector<long long> ids;
        ids.reserve(migrated.size());
        for (const StoredRun& r : migrated)
            ids.push_back(r.id);
        QVERIFY(s->deleteRuns(ids).ok());
        QCOMPARE(scalar(db, "SELECT count(*) FROM content_buckets"), 0);
        if (version >= 3)
            QCOMPARE(scalar(db, "SELECT count(*) FROM session_levels WHERE run_id IS NULL"), 1);
        QCOMPARE(importPath(*s, fixture(kApi).toStdString(), {})[0].result->imported, 435u);
    }

    // The hash lists of the buckets against a std::set: membership, merging sorted additions, removal.
    void contentBucketListsMatchASet()
    {
        std::mt19937_64 rng(7);
        for (int round = 0; round < 200; ++round) {
            std::set<std::uint64_t> want;
            std::string list;
            const int adds = 1 + static_cast<int>(rng() % 5);
            for (int a = 0; a < adds; ++a) {
                std::set<std::uint64_t> batch;
                const std::uint64_t top = rng() % 3; // few distinct high parts: additions land between entries
                for (int k = static_cast<int>(rng() % 40); k > 0; --k) {
                    const std::uint64_t h = (top << 62) | (rng() % 1000);
                    if (!want.count(h))
                        batch.insert(h);
                }
                list = contentbuckets::merged(list, std::vector<std::uint64_t>(batch.begin(), batch.end()));
                want.insert(batch.begin(), batch.end());
            }
            for (int k = static_cast<int>(rng() % 30); k > 0; --k) {
                const std::uint64_t h = ((rng() % 3) << 62) | (rng() % 1000);
                list = contentbuckets::without(list, h); // absent ones leave the list as it was
                want.erase(h);
            }
            QVERIFY(contentbuckets::decode(list) == std::vector<std::uint64_t>(want.begin(), want.end()));
            QCOMPARE(list.size(), 8 * want.size());
            for (std::uint64_t probe = 0; probe < 1000; probe += 7)
                for (std::uint64_t top = 0; top < 3; ++top)
                    QCOMPARE(contentbuckets::contains(list, (top << 62) | probe), want.count((top << 62) | probe) == 1);
        }
        // the byte layout: ascending, 8 bytes little-endian each
        const std::uint64_t two[] = { 0x0102030405060708ull, 0xf0e0d0c0b0a09080ull };
        QCOMPARE(contentbuckets::merged({}, two),
            std::string("\x08\x07\x06\x05\x04\x03\x02\x01\x80\x90\xa0\xb0\xc0\xd0\xe0\xf0", 16));
        QCOMPARE(contentbuckets::bucketOf(0xf0e0d0c0b0a09080ull), 0xf0e0);
    }

    void packedLatencyLayout()
    {
        // the bytes as specified: a little-endian mask, then the present values in order, each little-endian
        RunRecord r;
        QVERIFY(PackedLatency(r).bytes().empty());
        r.ttft.mean = 1.5; // entry 0; 1.5 is 0x3ff8000000000000
        QCOMPARE(PackedLatency(r).bytes(), std::string_view("\x01\x00\0\0\0\0\0\0\xf8\x3f", 10));
        r.ttft.mean.reset();
        r.tpot.p90 = 0.25; // entry 5 (TPOT's second); 0x3fd0000000000000
        r.e2el.p999 = 2.0; // entry 15; 0x4000000000000000
        r.e2el.median = 9.0; // medians are columns of their own, not packed
        QCOMPARE(PackedLatency(r).bytes(), std::string_view("\x20\x80\0\0\0\0\0\0\xd0\x3f\0\0\0\0\0\0\0\x40", 18));

        // every subset of the sixteen comes back exactly, the others absent
        const double kinds[] = { 0.0, -0.0, 5e-324, 1e308, 0.1, -3.25, std::numeric_limits<double>::infinity() };
        for (std::uint32_t mask = 0; mask < (1u << 16); ++mask) {
            RunRecord in;
            std::vector<std::optional<double>*> stats;
            for (LatencyStats* m : { &in.ttft, &in.tpot, &in.itl, &in.e2el })
                for (std::optional<double>* v : { &m->mean, &m->p90, &m->p99, &m->p999 })
                    stats.push_back(v);
            for (std::size_t i = 0; i < stats.size(); ++i)
                if ((mask >> i) & 1)
                    *stats[i] = kinds[(mask + i) % std::size(kinds)] + static_cast<double>(i);
            const PackedLatency packed(in);
            QCOMPARE(packed.bytes().size(), mask ? 2 + 8 * static_cast<std::size_t>(std::popcount(mask)) : 0);
            RunRecord out;
            out.itl.mean = 7.0; // overwritten: present or absent as packed
            QVERIFY(PackedLatency::unpack(packed.bytes(), out));
            QCOMPARE(contentHash(out), contentHash(in));
        }

        // what is not a packing is refused and changes nothing
        RunRecord keep;
        keep.ttft.p99 = 4.0;
        const std::string good(PackedLatency(r).bytes());
        for (const std::string& bad : { std::string("\x01"), good.substr(0, good.size() - 1), good + '\0',
                 std::string("\0\0", 2) + good.substr(2) }) {
            QVERIFY(!PackedLatency::unpack(bad, keep));
            QCOMPARE(keep.ttft.p99, std::optional<double>(4.0));
            QVERIFY(!keep.tpot.p90);
        }
    }
};

PARETOSCOPE_GUILESS_SUITE(TestStoreSchema)
#include "tst_storeschema.moc"
