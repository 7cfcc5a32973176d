// The SQLite store opened and read: schema versioning and the files it refuses, names that look like SQL, date ranges,
// pages, a scope that matches nothing, and deletion with cache invalidation, leaving no orphans.
#include <QtTest>

#include <sqlite3.h>

#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/import/importer.h"
#include "tests/support/storequeries.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {
} // namespace

class TestStoreReads : public QObject {
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
        QCOMPARE(
            QString::fromStdString(series[0].key.hardware), QStringLiteral("b300\" or 1=1")); // keys are lower case
        scope.hardware = { series[0].key.hardware };
        series = s->series(scope);
        QCOMPARE(int(series.size()), 1);
        QCOMPARE(int(s->points({ series[0].id }, TputMetric::Total).size()), 1);
        scope.hardware = { "b300' OR '1'='1" }; // an injection attempt in a filter finds nothing
        QVERIFY(s->series(scope).empty());
        QCOMPARE(s->runCount(), 1LL);
        QCOMPARE(QString::fromStdString(s->integrityCheck()), QStringLiteral("ok"));
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
        QCOMPARE(s->runCountOfSeries(ids, dates), static_cast<long long>(inside));
        Scope every;
        every.runs = RunSelection::All;
        QCOMPARE(s->runCountOfSeries(ids), static_cast<long long>(s->runsOfSeries(ids, every).size()));
    }

    // Pages of 7 runs, each after the last id of the one before, give the runs of the series once each, by id.
    void pagesGiveEveryRunOnce()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        QVERIFY(importPath(*s, fixture(kApi).toStdString(), {})[0].result.ok());
        std::vector<long long> ids;
        Scope dates;
        dates.model = "dsr1";
        for (const Series& se : s->series(dates))
            ids.push_back(se.id);
        dates.dateFrom = "2026-03-01";
        dates.runs = RunSelection::All; // pages list every run inside the dates (the Runs tab marks the selected ones)
        std::vector<long long> whole;
        for (const StoredRun& r : s->runsOfSeries(ids, dates))
            whole.push_back(r.id);
        std::sort(whole.begin(), whole.end());
        QVERIFY(whole.size() > 14);
        std::vector<long long> paged;
        long long after = 0;
        for (;;) {
            auto page = s->runsOfSeriesPage(ids, dates, after, 7);
            QVERIFY(page.size() <= 7);
            for (const StoredRun& r : page)
                paged.push_back(r.id);
            if (page.size() < 7)
                break;
            after = page.back().id;
        }
        QCOMPARE(paged, whole);
        QVERIFY(s->runsOfSeriesPage({}, dates, 0, 7).empty());
        QVERIFY(s->runsOfSeriesPage(ids, dates, 0, 0).empty());
    }

    void scopeThatMatchesNothing()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        importPath(*s, fixture(kApi).toStdString(), {});
        Scope scope;
        scope.model = "dsr1";
        scope.isl = 1024;
        scope.osl = 1024;
        std::vector<long long> ids;
        for (const Series& se : s->series(scope))
            ids.push_back(se.id);
        QVERIFY(!ids.empty());
        FrontierCache cache(*s);
        QVERIFY(!cache.frontiers(scope, TputMetric::Total).empty()); // cached first: the flag must not hit it
        // every hardware unchecked in the filter panel: the same scope, said to match nothing
        Scope none = scope;
        none.matchesNothing = true;
        QVERIFY(s->series(none).empty());
        QVERIFY(s->points(ids, TputMetric::Total, none).empty());
        QVERIFY(s->runPoints(ids, TputMetric::Total, none).empty());
        QCOMPARE(s->runStats(ids, TputMetric::Total, none, 0, 0).runs, 0LL);
        QVERIFY(s->runsOfSeries(ids, none).empty());
        QVERIFY(cache.frontiers(none, TputMetric::Total).empty());
        LadderRequest req;
        req.scope = none;
        req.scope.hardware = { "b300" }; // whatever the lists hold
        auto ladders = computeLadder(cache, bundledPricing(), req);
        QVERIFY(ladders.ok());
        QVERIFY(ladders->empty());
        QVERIFY(!cache.frontiers(scope, TputMetric::Total).empty());
    }

    void refusesNewerSchema()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("future.sqlite"));
        sqlite3* h = nullptr;
        sqlite3_open(path.toUtf8().constData(), &h);
        sqlite3_exec(h, "PRAGMA user_version=99", nullptr, nullptr, nullptr);
        sqlite3_close(h);
        auto s = RunStore::open(path.toStdString());
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error()).contains(QStringLiteral("schema version 99")), s.error().c_str());
    }

    void refusesNonDatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("text.sqlite"));
        QVERIFY(writeFile(path, QByteArray(4096, 'x')));
        auto s = RunStore::open(path.toStdString());
        QVERIFY(!s.ok());
        QVERIFY(QString::fromStdString(s.error()).contains(QStringLiteral("text.sqlite")));
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
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        QCOMPARE(scalar(db, "SELECT count(*) FROM runs"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM sources"), 0);
        QCOMPARE(scalar(db, "SELECT count(*) FROM series"), 0);
        // and the same file imports again in full
        QCOMPARE(importPath(*s, fixture(kApi).toStdString(), {})[0].result->imported, 435u);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestStoreReads)
#include "tst_storereads.moc"
