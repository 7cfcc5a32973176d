// Imports into the SQLite store: repeats and duplicates counted once, within a file and against the store, with the
// content hashes kept exactly; each record under its own series; provenance; all-or-nothing per file, a cancelled
// import, and a child process killed with SIGKILL in the middle of a large import.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <csignal>
#include <random>
#include <set>
#include <unordered_set>

#include "core/import/importer.h"
#include "core/model/u64set.h"
#include "core/output/reports.h"
#include "core/store/sqlite.h"
#include "tests/support/agggenerator.h"
#include "tests/support/storequeries.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {
} // namespace

class TestStoreImport : public QObject {
    Q_OBJECT
private slots:
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
        QVERIFY(writeFile(dir.filePath(QStringLiteral("repeats.json")), json));
        auto s = openTempStore(dir);
        auto r = importPath(*s, dir.filePath(QStringLiteral("repeats.json")).toStdString(), {});
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

    // Imports into an empty store and into a filled one (whose buckets are merged), then deletes some runs and
    // imports them again: the buckets always hold exactly the hashes of the stored runs.
    void contentBucketsFollowTheRuns()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        const QString first = dir.filePath(QStringLiteral("first.json")),
                      second = dir.filePath(QStringLiteral("second.json"));
        QVERIFY(writeAggArray(first.toStdString(), 20000, 1) > 0);
        QVERIFY(writeAggArray(second.toStdString(), 20000, 2) > 0);
        QCOMPARE(importPath(*s, first.toStdString(), {})[0].result->imported, 20000u);
        QVERIFY(s->storedContentHashes() == runHashes(*s));
        const long long buckets
            = scalar(dir.filePath(QStringLiteral("store.sqlite")), "SELECT count(*) FROM content_buckets");
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

    void reimportIsIdempotent()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        auto first = importPath(*s, fixture(kApi).toStdString(), {});
        QCOMPARE(first[0].result->imported, 435u);
        const long long sources = scalar(dir.filePath(QStringLiteral("store.sqlite")), "SELECT count(*) FROM sources");
        auto second = importPath(*s, fixture(kApi).toStdString(), {});
        QVERIFY(second[0].result.ok());
        QCOMPARE(second[0].result->imported, 0u);
        QCOMPARE(second[0].result->duplicates, 435u);
        QCOMPARE(s->runCount(), 435);
        QCOMPARE(scalar(dir.filePath(QStringLiteral("store.sqlite")), "SELECT count(*) FROM sources"), sources);
        // the same content under another name is still the same records
        QVERIFY(writeFile(dir.filePath(QStringLiteral("copy.json")), readAll(fixture(kApi))));
        auto third = importPath(*s, dir.filePath(QStringLiteral("copy.json")).toStdString(), {});
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
        QVERIFY(writeFile(dir.filePath(QStringLiteral("a.json")), QJsonDocument(a).toJson()));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("b.json")), QJsonDocument(b).toJson()));
        auto s = openTempStore(dir);
        auto ra = importPath(*s, dir.filePath(QStringLiteral("a.json")).toStdString(), {});
        QVERIFY2(ra[0].result.ok(), ra[0].result.ok() ? "" : ra[0].result.error().c_str());
        QCOMPARE(ra[0].result->imported, 300u);
        QCOMPARE(ra[0].result->duplicates, 100u);
        auto rb = importPath(*s, dir.filePath(QStringLiteral("b.json")).toStdString(), {});
        QVERIFY2(rb[0].result.ok(), rb[0].result.ok() ? "" : rb[0].result.error().c_str());
        QCOMPARE(rb[0].result->imported, 135u);
        QCOMPARE(rb[0].result->duplicates, 50u);
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
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
            rows.append(QJsonObject { { QStringLiteral("hw"), QString::fromStdString(x.hw) },
                { QStringLiteral("model"), QString::fromStdString(x.model) },
                { QStringLiteral("framework"), QString::fromStdString(x.engine) },
                { QStringLiteral("precision"), QString::fromStdString(x.precision) },
                { QStringLiteral("spec_decoding"), QString::fromStdString(x.spec) }, { QStringLiteral("isl"), x.isl },
                { QStringLiteral("osl"), x.osl }, { QStringLiteral("conc"), i + 1 }, { QStringLiteral("tp"), 8 },
                { QStringLiteral("tput_per_gpu"), 100.0 + i }, { QStringLiteral("median_tpot"), 0.01 } });
        }
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("series.json")), QJsonDocument(rows).toJson()));
        auto s = openTempStore(dir);
        auto r = importPath(*s, dir.filePath(QStringLiteral("series.json")).toStdString(), {});
        QVERIFY2(r[0].result.ok(), r[0].result.ok() ? "" : r[0].result.error().c_str());
        QCOMPARE(r[0].result->imported, 2000u);
        QCOMPARE(scalar(dir.filePath(QStringLiteral("store.sqlite")), "SELECT count(*) FROM series"),
            static_cast<long long>(used.size()));
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
        const QString path = dir.filePath(QStringLiteral("mostly-good.json"));
        QVERIFY(generateBad(path));
        auto r = importPath(*s, path.toStdString(), {});
        QVERIFY(!r[0].result.ok());
        QVERIFY2(QString::fromStdString(r[0].result.error()).contains(QStringLiteral("record 5000")),
            r[0].result.error().c_str());
        QCOMPARE(s->runCount(), 0);
        QCOMPARE(scalar(dir.filePath(QStringLiteral("store.sqlite")), "SELECT count(*) FROM sources"), 0);
        QCOMPARE(scalar(dir.filePath(QStringLiteral("store.sqlite")), "SELECT count(*) FROM series"), 0);
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
        const QString path = dir.filePath(QStringLiteral("agg.json"));
        QVERIFY(writeAggArray(path.toStdString(), 3000) > 0);
        auto r = importPath(*s, path.toStdString(), {});
        QVERIFY(!r[0].result.ok());
        const QString error = QString::fromStdString(r[0].result.error());
        QVERIFY2(error.contains(QStringLiteral("record 1000:"))
                && error.contains(QStringLiteral("refused by a test trigger")),
            qPrintable(error));
        QCOMPARE(s->runCount(), 0);
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
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
        const QString json = dir.filePath(QStringLiteral("agg.json"));
        const std::uint64_t bytes = writeAggArray(json.toStdString(), 40000);
        QVERIFY(bytes > (8u << 20));
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        auto cancelHalfWay = [&](std::uint64_t& calls) {
            return [&calls](std::uint64_t done, std::uint64_t total) {
                ++calls;
                return done < total / 2;
            };
        };
        std::uint64_t calls = 0;
        auto r = importPath(*s, json.toStdString(), {}, cancelHalfWay(calls));
        QVERIFY(!r[0].result.ok());
        QVERIFY2(QString::fromStdString(r[0].result.error()).contains(QStringLiteral("import cancelled")),
            r[0].result.error().c_str());
        QVERIFY(calls > 2); // progress was reported before the cancel
        QCOMPARE(s->runCount(), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM sources"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM content_buckets"), 0);

        auto whole = importPath(*s, json.toStdString(), {});
        QVERIFY2(whole[0].result.ok(), whole[0].result.ok() ? "" : whole[0].result.error().c_str());
        QCOMPARE(whole[0].result->imported, 40000u);
        const QString csv = dir.filePath(QStringLiteral("runs.csv"));
        QVERIFY(writeFile(csv, QByteArray::fromStdString(runsCsv(s->allRuns()))));

        auto other = openTempStore(dir, QStringLiteral("other.sqlite"));
        calls = 0;
        auto c = importPath(*other, csv.toStdString(), {}, cancelHalfWay(calls));
        QVERIFY(!c[0].result.ok());
        QVERIFY2(QString::fromStdString(c[0].result.error()).contains(QStringLiteral("import cancelled")),
            c[0].result.error().c_str());
        QCOMPARE(other->runCount(), 0);
        QCOMPARE(scalar(dir.filePath(QStringLiteral("other.sqlite")), "SELECT count(*) FROM sources"), 0);
        auto csvWhole = importPath(*other, csv.toStdString(), {});
        QVERIFY2(csvWhole[0].result.ok(), csvWhole[0].result.ok() ? "" : csvWhole[0].result.error().c_str());
        QCOMPARE(csvWhole[0].result->imported, 40000u);
        QCOMPARE(QString::fromStdString(other->integrityCheck()), QStringLiteral("ok"));
    }

    void killedMidImportLeavesConsistentStore_data()
    {
        QTest::addColumn<bool>("readerOpen");
        // the store stays in WAL mode whether or not another connection has it open
        QTest::newRow("alone") << false;
        QTest::newRow("a reader open") << true;
    }

    void killedMidImportLeavesConsistentStore()
    {
        QFETCH(bool, readerOpen);
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("big.json")),
                      db = dir.filePath(QStringLiteral("killed.sqlite"));
        const std::uint64_t n = 150000;
        QVERIFY(writeAggArray(data.toStdString(), n) > 0);
        auto reader = RunStore::open(db.toStdString());
        QVERIFY(reader.ok());
        if (!readerOpen)
            reader = Error { "closed" };
        const qint64 emptySize = QFileInfo(db).size();

        QProcess child;
        child.start(cliProgram(), { QStringLiteral("import"), QStringLiteral("--db"), db, data });
        QVERIFY(child.waitForStarted());
        // wait until the import is writing pages (the database or its WAL grows), then kill it without warning
        QElapsedTimer t;
        t.start();
        bool writing = false;
        while (t.elapsed() < 60000 && child.state() == QProcess::Running) {
            if (QFileInfo(db + QStringLiteral("-wal")).size() > (2 << 20)
                || QFileInfo(db).size() > emptySize + (2 << 20)) {
                writing = true;
                break;
            }
            QThread::msleep(5);
        }
        QVERIFY2(writing, "the import never started writing");
        QVERIFY2(!QFileInfo::exists(db + QStringLiteral("-journal")) && QFileInfo::exists(db + QStringLiteral("-wal")),
            "the import writes in WAL mode");
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
        const qsizetype at = all.lastIndexOf("\"tput_per_gpu\": ");
        all.insert(at + 16, "-");
        return writeFile(path, all);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestStoreImport)
#include "tests/support/testpaths.h"
#include "tst_storeimport.moc"
