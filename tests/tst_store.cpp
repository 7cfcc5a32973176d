// The SQLite store: schema versioning, idempotent re-import, all-or-nothing per file, deletion, cache invalidation,
// and a child process killed with SIGKILL in the middle of a large import.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <bit>
#include <csignal>
#include <random>
#include <set>
#include <sqlite3.h>
#include <unordered_set>

#include "core/contentbuckets.h"
#include "core/frontiercache.h"
#include "core/importer.h"
#include "core/latencypack.h"
#include "core/reports.h"
#include "core/sqlite.h"
#include "core/u64set.h"
#include "tests/support/agggenerator.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {
long long scalar(const QString& db, const char* sql)
{
    sqlite3* h = nullptr;
    sqlite3_open_v2(db.toUtf8().constData(), &h, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}
const char* kApi = "inferencex-app-api/benchmarks.json";

// The content hashes of the stored runs (runs.content_hash), ascending as unsigned numbers: what the store must hold
// for finding duplicates, exactly.
std::vector<std::uint64_t> runHashes(RunStore& s)
{
    std::vector<std::uint64_t> out;
    sql::Statement q(s.handle(), "SELECT content_hash FROM runs");
    while (q.step())
        out.push_back(static_cast<std::uint64_t>(q.int64(0)));
    std::sort(out.begin(), out.end());
    return out;
}

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

class TestStore : public QObject {
    Q_OBJECT
private slots:
    void schemaVersion()
    {
        QTemporaryDir dir;
        {
            auto s = openTempStore(dir);
            QVERIFY(s);
            QCOMPARE(s->schemaVersion(), RunStore::currentSchemaVersion());
            QCOMPARE(QString::fromStdString(s->integrityCheck()), QStringLiteral("ok"));
        }
        // reopening migrates nothing and keeps the version
        auto again = openTempStore(dir);
        QCOMPARE(again->schemaVersion(), RunStore::currentSchemaVersion());
    }

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
            auto scratch = openTempStore(dir, "scratch.sqlite");
            QCOMPARE(importPath(*scratch, fixture(kApi).toStdString(), {})[0].result->imported, 435u);
            importPath(*scratch, fixture("inferencex-agg").toStdString(), {});
            for (const StoredRun& r : scratch->allRuns())
                runs.push_back(r.record);
        }
        const auto withTails = std::count_if(runs.begin(), runs.end(), [](const RunRecord& r) { return r.e2el.p999; });
        QVERIFY(withTails >= 3 && withTails < static_cast<long>(runs.size()));

        const QString db = dir.filePath("store.sqlite");
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
            QCOMPARE(is.provenance.note, was.provenance.note);
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
        for (const StoredRun& r : migrated)
            ids.push_back(r.id);
        QVERIFY(s->deleteRuns(ids).ok());
        QCOMPARE(scalar(db, "SELECT count(*) FROM content_buckets"), 0);
        if (version >= 3)
            QCOMPARE(scalar(db, "SELECT count(*) FROM session_levels WHERE run_id IS NULL"), 1);
        QCOMPARE(importPath(*s, fixture(kApi).toStdString(), {})[0].result->imported, 435u);
    }

    // Repeats within one file, next to each other (some across the pipeline's batches), far apart, and as the last
    // record: each is counted once as a duplicate, and the runs stored are the first of each, in file order.
    void repeatsWithinAFileKeepTheFirst()
    {
        QTemporaryDir dir;
        const QByteArray good
            = readAll(fixture("inferencex-agg/agg_kimik2.5_1k1k_int4_vllm_tp8-ep1-dpafalse_disagg-false_"
                              "spec-mtp_conc4_MI355-gbt350-odcdh5-wbb3.json"));
        QVERIFY(good.contains("\"conc\": 4,"));
        std::vector<int> concs;
        for (int i = 0; i < 10000; ++i) {
            concs.push_back(i + 1);
            if (i % 97 == 0)
                concs.push_back(i + 1);
            if (i % 1000 == 999)
                concs.push_back(i - 500);
        }
        concs.push_back(concs.back());
        QByteArray json = "[";
        std::set<int> seen;
        std::vector<long long> firstIndex;
        for (std::size_t k = 0; k < concs.size(); ++k) {
            QByteArray rec = good;
            json += (k ? "," : "") + rec.replace("\"conc\": 4,", "\"conc\": " + QByteArray::number(concs[k]) + ",");
            if (seen.insert(concs[k]).second)
                firstIndex.push_back(static_cast<long long>(k));
        }
        json += "]";
        QVERIFY(writeFile(dir.filePath("repeats.json"), json));
        auto s = openTempStore(dir);
        auto r = importPath(*s, dir.filePath("repeats.json").toStdString(), {});
        QVERIFY2(r[0].result.ok(), r[0].result.ok() ? "" : r[0].result.error().c_str());
        QCOMPARE(r[0].result->imported, 10000u);
        QCOMPARE(r[0].result->duplicates, concs.size() - 10000u);
        std::vector<long long> stored;
        sql::Statement q(s->handle(), "SELECT record_index FROM runs ORDER BY id");
        while (q.step())
            stored.push_back(q.int64(0));
        QVERIFY(stored == firstIndex);
        QVERIFY(s->storedContentHashes() == runHashes(*s));
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

    // Imports into an empty store and into a filled one (whose buckets are merged), then deletes some runs and
    // imports them again: the buckets always hold exactly the hashes of the stored runs.
    void contentBucketsFollowTheRuns()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        const QString first = dir.filePath("first.json"), second = dir.filePath("second.json");
        QVERIFY(writeAggArray(first.toStdString(), 20000, 1) > 0);
        QVERIFY(writeAggArray(second.toStdString(), 20000, 2) > 0);
        QCOMPARE(importPath(*s, first.toStdString(), {})[0].result->imported, 20000u);
        QVERIFY(s->storedContentHashes() == runHashes(*s));
        const long long buckets = scalar(dir.filePath("store.sqlite"), "SELECT count(*) FROM content_buckets");
        QVERIFY2(buckets > 15000, std::to_string(buckets).c_str()); // 20,000 hashes over 65,536 buckets
        auto r = importPath(*s, second.toStdString(), {});
        QVERIFY2(r[0].result.ok(), r[0].result.ok() ? "" : r[0].result.error().c_str());
        const std::uint64_t fromSecond = r[0].result->imported;
        QVERIFY(fromSecond > 0);
        QCOMPARE(s->runCount(), static_cast<long long>(20000 + fromSecond));
        QVERIFY(s->storedContentHashes() == runHashes(*s));

        std::vector<long long> every3rd;
        for (const StoredRun& run : s->allRuns())
            if (run.id % 3 == 0)
                every3rd.push_back(run.id);
        QVERIFY(s->deleteRuns(every3rd).ok());
        QVERIFY(s->storedContentHashes() == runHashes(*s));
        QCOMPARE(QString::fromStdString(s->integrityCheck()), QStringLiteral("ok"));
        // the deleted ones are no longer duplicates: both files bring exactly them back
        const std::uint64_t back = importPath(*s, first.toStdString(), {})[0].result->imported
            + importPath(*s, second.toStdString(), {})[0].result->imported;
        QCOMPARE(back, every3rd.size());
        QVERIFY(s->storedContentHashes() == runHashes(*s));
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

    void namesThatLookLikeSqlAreJustNames()
    {
        // every value reaches SQLite as a bound parameter: quotes and statements in a name are stored and found as
        // they are, and nothing else happens
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        const std::string evil = "x'); DROP TABLE runs; --";
        const std::string json = "[{\"schema\":\"paretoscope.run/1\",\"model\":\"" + evil
            + "\",\"hardware\":\"b300\\\" OR 1=1\",\"engine\":\"vllm\",\"precision\":\"fp4\","
              "\"workload\":\"w'; DELETE FROM series; "
              "--\",\"interactivity_tok_s_user\":40,\"tput_per_gpu_tok_s\":1000}]";
        MemorySource src("evil.json", json);
        auto r = importSource(*s, src, {});
        QVERIFY2(r, r ? "" : r.error().c_str());
        QCOMPARE(r->imported, 1u);
        auto scopes = s->scopes();
        QCOMPARE(int(scopes.size()), 1);
        QCOMPARE(QString::fromStdString(scopes[0].model), QString::fromStdString(evil));
        Scope scope;
        scope.model = evil;
        scope.workload = "w'; DELETE FROM series; --";
        auto series = s->series(scope);
        QCOMPARE(int(series.size()), 1);
        QCOMPARE(QString::fromStdString(series[0].key.hardware), QString("b300\" or 1=1")); // keys are lower case
        scope.hardware = { series[0].key.hardware };
        series = s->series(scope);
        QCOMPARE(int(series.size()), 1);
        QCOMPARE(int(s->points({ series[0].id }, TputMetric::Total).size()), 1);
        scope.hardware = { "b300' OR '1'='1" }; // an injection attempt in a filter finds nothing
        QVERIFY(s->series(scope).empty());
        QCOMPARE(s->runCount(), 1LL);
        QCOMPARE(QString::fromStdString(s->integrityCheck()), QString("ok"));
    }

    void dateRangeKeepsOnlyRunsInside()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        QCOMPARE(importPath(*s, fixture(kApi).toStdString(), {})[0].result->imported, 435u);
        std::vector<long long> ids;
        Scope dates;
        dates.model = "dsr1";
        for (const Series& se : s->series(dates))
            ids.push_back(se.id);
        dates.dateFrom = "2026-03-01";
        dates.dateTo = "2026-04-30";
        // counted here from the full records, apart from the store's SQL
        std::size_t inside = 0;
        for (const StoredRun& r : s->runsOfSeries(ids)) {
            const std::string day = r.record.runDate.substr(0, 10);
            inside += !day.empty() && day >= dates.dateFrom && day <= dates.dateTo;
        }
        QVERIFY(inside > 0);
        QCOMPARE(s->runsOfSeries(ids, dates).size(), inside);
        QCOMPARE(s->points(ids, TputMetric::Total, dates).size() <= inside, true);
        QCOMPARE(s->runsOfSeries(ids, dates, 3).size(), std::size_t(3));
    }

    void refusesNewerSchema()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("future.sqlite");
        sqlite3* h = nullptr;
        sqlite3_open(path.toUtf8().constData(), &h);
        sqlite3_exec(h, "PRAGMA user_version=99", nullptr, nullptr, nullptr);
        sqlite3_close(h);
        auto s = RunStore::open(path.toStdString());
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error()).contains("schema version 99"), s.error().c_str());
    }

    void refusesNonDatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("text.sqlite");
        QVERIFY(writeFile(path, QByteArray(4096, 'x')));
        auto s = RunStore::open(path.toStdString());
        QVERIFY(!s.ok());
        QVERIFY(QString::fromStdString(s.error()).contains("text.sqlite"));
    }

    void reimportIsIdempotent()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        auto first = importPath(*s, fixture(kApi).toStdString(), {});
        QCOMPARE(first[0].result->imported, 435u);
        const long long sources = scalar(dir.filePath("store.sqlite"), "SELECT count(*) FROM sources");
        auto second = importPath(*s, fixture(kApi).toStdString(), {});
        QVERIFY(second[0].result.ok());
        QCOMPARE(second[0].result->imported, 0u);
        QCOMPARE(second[0].result->duplicates, 435u);
        QCOMPARE(s->runCount(), 435);
        QCOMPARE(scalar(dir.filePath("store.sqlite"), "SELECT count(*) FROM sources"), sources);
        // the same content under another name is still the same records
        QVERIFY(writeFile(dir.filePath("copy.json"), readAll(fixture(kApi))));
        auto third = importPath(*s, dir.filePath("copy.json").toStdString(), {});
        QCOMPARE(third[0].result->duplicates, 435u);
        QCOMPARE(s->runCount(), 435);
    }

    void duplicatesWithinAFileAndAgainstTheStore()
    {
        // The 435 API rows in three files: A = rows 0-299 with rows 0-49 written twice more; B = rows 250-434 (50
        // of them already stored by A). The counts are what a set of distinct rows gives.
        const QJsonArray rows = QJsonDocument::fromJson(readAll(fixture(kApi))).array();
        QCOMPARE(rows.size(), 435);
        QJsonArray a, b;
        for (int i = 0; i < 300; ++i)
            a.append(rows[i]);
        for (int i = 0; i < 50; ++i)
            a.append(rows[i]);
        for (int i = 49; i >= 0; --i)
            a.append(rows[i]);
        for (int i = 250; i < 435; ++i)
            b.append(rows[i]);
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("a.json"), QJsonDocument(a).toJson()));
        QVERIFY(writeFile(dir.filePath("b.json"), QJsonDocument(b).toJson()));
        auto s = openTempStore(dir);
        auto ra = importPath(*s, dir.filePath("a.json").toStdString(), {});
        QVERIFY2(ra[0].result.ok(), ra[0].result.ok() ? "" : ra[0].result.error().c_str());
        QCOMPARE(ra[0].result->imported, 300u);
        QCOMPARE(ra[0].result->duplicates, 100u);
        auto rb = importPath(*s, dir.filePath("b.json").toStdString(), {});
        QVERIFY2(rb[0].result.ok(), rb[0].result.ok() ? "" : rb[0].result.error().c_str());
        QCOMPARE(rb[0].result->imported, 135u);
        QCOMPARE(rb[0].result->duplicates, 50u);
        const QString db = dir.filePath("store.sqlite");
        QCOMPARE(s->runCount(), 435);
        // every stored record has its hash in the buckets, and nothing else is there
        QCOMPARE(s->storedContentHashes().size(), 435u);
        QVERIFY(s->storedContentHashes() == runHashes(*s));
        // the whole fixture now adds nothing
        auto again = importPath(*s, fixture(kApi).toStdString(), {});
        QCOMPARE(again[0].result->imported, 0u);
        QCOMPARE(again[0].result->duplicates, 435u);
    }

    // Records of 96 series in random order, some series differing only in where a name ends ("m" + "a1" against
    // "ma" + "1"): each run is stored under the series of its own record, one series row per distinct series.
    void eachRecordKeepsItsOwnSeries()
    {
        struct Series {
            std::string model, hw, engine, precision, spec;
            int isl, osl;
        };
        std::vector<Series> all;
        for (const char* model : { "m", "ma" })
            for (const char* hw : { "a1", "1" })
                for (const char* engine : { "vllm", "sglang" })
                    for (const char* precision : { "fp4", "fp8" })
                        for (const char* spec : { "none", "mtp" })
                            for (auto [isl, osl] : { std::pair { 1024, 1024 }, { 1024, 8192 }, { 8192, 1024 } })
                                all.push_back({ model, hw, engine, precision, spec, isl, osl });
        QCOMPARE(all.size(), std::size_t(96));
        std::mt19937 rng(11);
        QJsonArray rows;
        std::vector<std::size_t> chosen;
        std::set<std::size_t> used;
        for (int i = 0; i < 2000; ++i) {
            const std::size_t k = rng() % all.size();
            const Series& x = all[k];
            chosen.push_back(k);
            used.insert(k);
            rows.append(QJsonObject { { "hw", QString::fromStdString(x.hw) },
                { "model", QString::fromStdString(x.model) }, { "framework", QString::fromStdString(x.engine) },
                { "precision", QString::fromStdString(x.precision) },
                { "spec_decoding", QString::fromStdString(x.spec) }, { "isl", x.isl }, { "osl", x.osl },
                { "conc", i + 1 }, { "tp", 8 }, { "tput_per_gpu", 100.0 + i }, { "median_tpot", 0.01 } });
        }
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("series.json"), QJsonDocument(rows).toJson()));
        auto s = openTempStore(dir);
        auto r = importPath(*s, dir.filePath("series.json").toStdString(), {});
        QVERIFY2(r[0].result.ok(), r[0].result.ok() ? "" : r[0].result.error().c_str());
        QCOMPARE(r[0].result->imported, 2000u);
        QCOMPARE(
            scalar(dir.filePath("store.sqlite"), "SELECT count(*) FROM series"), static_cast<long long>(used.size()));
        auto runs = s->allRuns();
        QCOMPARE(runs.size(), std::size_t(2000));
        for (const StoredRun& run : runs) {
            const RunRecord& got = run.record;
            const Series& want = all[chosen[static_cast<std::size_t>(got.concurrency - 1)]];
            QCOMPARE(got.model, want.model);
            QCOMPARE(got.hardware, want.hw);
            QCOMPARE(got.engine, want.engine);
            QCOMPARE(got.precision, want.precision);
            QCOMPARE(got.specDecoding, want.spec);
            QCOMPARE(got.isl, want.isl);
            QCOMPARE(got.osl, want.osl);
        }
    }

    void contentHashSetMatchesAStandardSet()
    {
        // keys that share their low bits, runs of neighbours, and 0 (the set's empty marker) among random ones
        U64Set set;
        std::unordered_set<std::uint64_t> reference;
        std::mt19937_64 rng(7);
        std::vector<std::uint64_t> keys { 0, 0, 1, ~0ull };
        for (std::uint64_t i = 0; i < 5000; ++i) {
            keys.push_back(i << 40);
            keys.push_back(1000 + i);
            keys.push_back(rng() % 50000);
            keys.push_back(rng());
        }
        for (std::uint64_t k : keys) {
            const bool fresh = reference.insert(k).second;
            QCOMPARE(set.insert(k), fresh);
            QVERIFY(set.contains(k));
        }
        QCOMPARE(set.size(), reference.size());
        for (int i = 0; i < 20000; ++i) {
            std::uint64_t probe = rng() % 60000;
            QCOMPARE(set.contains(probe), reference.count(probe) == 1);
        }
        auto listed = set.keys();
        QCOMPARE(listed.size(), reference.size());
        // and in the order SQLite keeps them, as signed integers, for the in-order writes at the commit
        std::vector<std::int64_t> ordered(listed.begin(), listed.end()), got;
        std::sort(ordered.begin(), ordered.end());
        for (std::uint64_t k : set.keysInSignedOrder())
            got.push_back(static_cast<std::int64_t>(k));
        QVERIFY(got == ordered);
        QCOMPARE(std::unordered_set<std::uint64_t>(listed.begin(), listed.end()), reference);
    }

    void provenanceIsKept()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        importPath(*s, fixture(kApi).toStdString(), {});
        auto runs = s->allRuns();
        QVERIFY(!runs.empty());
        const Provenance& p = runs.front().record.provenance;
        QCOMPARE(QString::fromStdString(p.source), fixture(kApi));
        QCOMPARE(p.sha256, std::string("f46823a76cb63248705329f327e1494df02b4dfa4df0898b7ee084c75c20bd52"));
        QCOMPARE(p.format, std::string("inferencex-api"));
        QVERIFY(std::abs(p.importedAt - QDateTime::currentSecsSinceEpoch()) < 600);
    }

    void fileIsAllOrNothing()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        const QString path = dir.filePath("mostly-good.json");
        QVERIFY(generateBad(path));
        auto r = importPath(*s, path.toStdString(), {});
        QVERIFY(!r[0].result.ok());
        QVERIFY2(QString::fromStdString(r[0].result.error()).contains("record 5000"), r[0].result.error().c_str());
        QCOMPARE(s->runCount(), 0);
        QCOMPARE(scalar(dir.filePath("store.sqlite"), "SELECT count(*) FROM sources"), 0);
        QCOMPARE(scalar(dir.filePath("store.sqlite"), "SELECT count(*) FROM series"), 0);
    }

    void aRecordTheStoreRefusesIsNamedAndNothingStays()
    {
        // The store itself refuses record 1,000 of 3,000 (a trigger stands in for a constraint): rows are written
        // several to a statement, and the error still names that one record; nothing of the file stays.
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        QVERIFY(sql::exec(s->handle(),
            "CREATE TRIGGER refuse BEFORE INSERT ON runs WHEN NEW.record_index = 999 "
            "BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END")
                    .ok());
        const QString path = dir.filePath("agg.json");
        QVERIFY(writeAggArray(path.toStdString(), 3000) > 0);
        auto r = importPath(*s, path.toStdString(), {});
        QVERIFY(!r[0].result.ok());
        const QString error = QString::fromStdString(r[0].result.error());
        QVERIFY2(error.contains("record 1000:") && error.contains("refused by a test trigger"), qPrintable(error));
        QCOMPARE(s->runCount(), 0);
        const QString db = dir.filePath("store.sqlite");
        QCOMPARE(scalar(db, "SELECT count(*) FROM sources"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM content_buckets"), 0);
        // without the trigger the same file imports whole, its content hashes with it
        QVERIFY(sql::exec(s->handle(), "DROP TRIGGER refuse").ok());
        auto again = importPath(*s, path.toStdString(), {});
        QVERIFY2(again[0].result.ok(), again[0].result.ok() ? "" : again[0].result.error().c_str());
        QCOMPARE(again[0].result->imported, 3000u);
        QCOMPARE(s->storedContentHashes().size(), 3000u);
        QVERIFY(s->storedContentHashes() == runHashes(*s));
        QCOMPARE(QString::fromStdString(s->integrityCheck()), QStringLiteral("ok"));
    }

    // Cancelling from the progress callback half-way through a large JSON file, and through the same runs as a CSV:
    // the import says so, nothing of the file stays, and the reading thread stops with it. Then the file imports
    // whole.
    void cancelledImportLeavesNothing()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        const QString json = dir.filePath("agg.json");
        const std::uint64_t bytes = writeAggArray(json.toStdString(), 40000);
        QVERIFY(bytes > (8u << 20));
        const QString db = dir.filePath("store.sqlite");
        auto cancelHalfWay = [&](std::uint64_t& calls) {
            return [&calls](std::uint64_t done, std::uint64_t total) {
                ++calls;
                return done < total / 2;
            };
        };
        std::uint64_t calls = 0;
        auto r = importPath(*s, json.toStdString(), {}, cancelHalfWay(calls));
        QVERIFY(!r[0].result.ok());
        QVERIFY2(QString::fromStdString(r[0].result.error()).contains("import cancelled"), r[0].result.error().c_str());
        QVERIFY(calls > 2); // progress was reported before the cancel
        QCOMPARE(s->runCount(), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM sources"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM content_buckets"), 0);

        auto whole = importPath(*s, json.toStdString(), {});
        QVERIFY2(whole[0].result.ok(), whole[0].result.ok() ? "" : whole[0].result.error().c_str());
        QCOMPARE(whole[0].result->imported, 40000u);
        const QString csv = dir.filePath("runs.csv");
        QVERIFY(writeFile(csv, QByteArray::fromStdString(runsCsv(s->allRuns()))));

        auto other = openTempStore(dir, "other.sqlite");
        calls = 0;
        auto c = importPath(*other, csv.toStdString(), {}, cancelHalfWay(calls));
        QVERIFY(!c[0].result.ok());
        QVERIFY2(QString::fromStdString(c[0].result.error()).contains("import cancelled"), c[0].result.error().c_str());
        QCOMPARE(other->runCount(), 0);
        QCOMPARE(scalar(dir.filePath("other.sqlite"), "SELECT count(*) FROM sources"), 0);
        auto csvWhole = importPath(*other, csv.toStdString(), {});
        QVERIFY2(csvWhole[0].result.ok(), csvWhole[0].result.ok() ? "" : csvWhole[0].result.error().c_str());
        QCOMPARE(csvWhole[0].result->imported, 40000u);
        QCOMPARE(QString::fromStdString(other->integrityCheck()), QStringLiteral("ok"));
    }

    void deleteAndCacheInvalidation()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        importPath(*s, fixture(kApi).toStdString(), {});
        FrontierCache cache(*s);
        Scope scope;
        scope.model = "dsr1";
        scope.isl = 1024;
        scope.osl = 1024;
        scope.hardware = { "b300" };
        const auto before = cache.frontiers(scope, TputMetric::Total);
        QVERIFY(!before.empty());
        std::vector<long long> ids;
        for (const auto& g : before)
            for (const auto& p : g.points)
                ids.push_back(p.runId);
        const auto v0 = s->dataVersion();
        QVERIFY(s->deleteRuns(ids).ok());
        QVERIFY(s->dataVersion() != v0);
        QCOMPARE(s->runCount(), 435 - static_cast<long long>(ids.size()));
        const auto& after = cache.frontiers(scope, TputMetric::Total);
        for (const auto& g : after)
            for (const auto& p : g.points)
                QVERIFY(std::find(ids.begin(), ids.end(), p.runId) == ids.end());
        QCOMPARE(QString::fromStdString(s->integrityCheck()), QStringLiteral("ok"));
    }

    void deletingEverythingLeavesNoOrphans()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        importPath(*s, fixture(kApi).toStdString(), {});
        std::vector<long long> ids;
        for (const StoredRun& r : s->allRuns())
            ids.push_back(r.id);
        QVERIFY(s->deleteRuns(ids).ok());
        const QString db = dir.filePath("store.sqlite");
        QCOMPARE(scalar(db, "SELECT count(*) FROM runs"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM sources"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM series"), 0);
        // and the same file imports again in full
        QCOMPARE(importPath(*s, fixture(kApi).toStdString(), {})[0].result->imported, 435u);
    }

    void killedMidImportLeavesConsistentStore_data()
    {
        QTest::addColumn<bool>("readerOpen");
        // alone with the store, an import writes through a rollback journal; with a reader open it stays in WAL
        QTest::newRow("rollback journal") << false;
        QTest::newRow("WAL, a reader open") << true;
    }

    void killedMidImportLeavesConsistentStore()
    {
        QFETCH(bool, readerOpen);
        QTemporaryDir dir;
        const QString data = dir.filePath("big.json"), db = dir.filePath("killed.sqlite");
        const std::uint64_t n = 150000;
        QVERIFY(writeAggArray(data.toStdString(), n) > 0);
        auto reader = RunStore::open(db.toStdString());
        QVERIFY(reader.ok());
        if (!readerOpen)
            reader = Error { "closed" };
        const qint64 emptySize = QFileInfo(db).size();

        QProcess child;
        child.start(PARETOSCOPE_CLI, { "import", "--db", db, data });
        QVERIFY(child.waitForStarted());
        // wait until the import is writing pages (the database or its WAL grows), then kill it without warning
        QElapsedTimer t;
        t.start();
        bool writing = false;
        while (t.elapsed() < 60000 && child.state() == QProcess::Running) {
            if (QFileInfo(db + "-wal").size() > (2 << 20) || QFileInfo(db).size() > emptySize + (2 << 20)) {
                writing = true;
                break;
            }
            QThread::msleep(5);
        }
        QVERIFY2(writing, "the import never started writing");
        if (!readerOpen)
            QVERIFY2(QFileInfo::exists(db + "-journal"), "alone with the store, the import uses a rollback journal");
        else
            QVERIFY2(!QFileInfo::exists(db + "-journal"), "with a reader open, the import stays in WAL mode");
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        if (readerOpen)
            QCOMPARE((*reader)->runCount(), 0);
        reader = Error { "closed" };

        auto s = RunStore::open(db.toStdString());
        QVERIFY(s.ok());
        QCOMPARE(QString::fromStdString((*s)->integrityCheck()), QStringLiteral("ok"));
        const long long count = (*s)->runCount();
        QVERIFY2(count == 0 || count == static_cast<long long>(n), qPrintable(QString::number(count)));
        // and the store still takes the file whole afterwards
        auto again = importPath(**s, data.toStdString(), {});
        QVERIFY(again[0].result.ok());
        QCOMPARE((*s)->runCount(), static_cast<long long>(n));
    }

private:
    static bool generateBad(const QString& path)
    {
        // 5000 good records with the last one broken
        if (!writeAggArray(path.toStdString(), 5000))
            return false;
        QByteArray all = readAll(path);
        int at = all.lastIndexOf("\"tput_per_gpu\": ");
        all.insert(at + 16, "-");
        return writeFile(path, all);
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
