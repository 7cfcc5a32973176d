// Time (docs/architecture.md section 10): which runs count as of a date (latest per curve or configuration, or all),
// the history of a reading and the difference between two dates, the spread of reruns, and a view written as a command
// and read back. Expectations come from a reference selection written here (a loop over the records, not the store's
// code) on a crafted history and on the real InferenceX API fixture.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/analysis/baseline.h"
#include "core/analysis/chartdata.h"
#include "core/analysis/frontiercache.h"
#include "core/analysis/history.h"
#include "core/analysis/viewoptions.h"
#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "core/output/reports.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

// One crafted run: hardware, concurrency (which sets its interactivity), run date ("" undated), tok/s/GPU.
struct Crafted {
    QString hardware;
    int concurrency = 0;
    QString date;
    double tput = 0;
};

// Interactivity falls as concurrency grows; every reading at 50 tok/s/user is the knot of concurrency 8.
double interactivityOf(int concurrency)
{
    return 400.0 / concurrency;
}

QJsonObject recordJson(const Crafted& c)
{
    QJsonObject o { { QStringLiteral("schema"), QStringLiteral("paretoscope.run/1") },
        { QStringLiteral("model"), QStringLiteral("m") }, { QStringLiteral("hardware"), c.hardware },
        { QStringLiteral("engine"), QStringLiteral("vllm") }, { QStringLiteral("precision"), QStringLiteral("fp4") },
        { QStringLiteral("spec_decoding"), QStringLiteral("none") }, { QStringLiteral("tp"), 8 },
        { QStringLiteral("gpus"), 8 }, { QStringLiteral("isl"), 1024 }, { QStringLiteral("osl"), 1024 },
        { QStringLiteral("concurrency"), c.concurrency },
        { QStringLiteral("interactivity_tok_s_user"), interactivityOf(c.concurrency) },
        { QStringLiteral("tput_per_gpu_tok_s"), c.tput } };
    if (!c.date.isEmpty())
        o[QStringLiteral("run_date")] = c.date;
    return o;
}

// Imports each batch as a source of its own, in order (a later batch: higher ids, "imported last").
bool importBatches(RunStore& store, const QTemporaryDir& dir, const std::vector<std::vector<Crafted>>& batches)
{
    for (std::size_t i = 0; i < batches.size(); ++i) {
        QJsonArray a;
        for (const Crafted& c : batches[i])
            a.append(recordJson(c));
        const QString path = dir.filePath(QStringLiteral("batch%1.json").arg(i));
        if (!writeFile(path, QJsonDocument(a).toJson()))
            return false;
        if (!importPath(store, path.toStdString(), {}).front().result)
            return false;
    }
    return true;
}

Scope craftedScope(RunSelection runs, const std::string& asOf)
{
    Scope s;
    s.model = "m";
    s.isl = 1024;
    s.osl = 1024;
    s.runs = runs;
    s.asOf = asOf;
    return s;
}

// The reference (the InferenceX site's rule): each batch is a run of its own (a file imported, numbered in order of
// import); a line is a hardware's configuration over its concurrencies. Per line the run with the greatest (date,
// batch) on or before asOf is taken with every concurrency it measured on that date, none borrowed from another run; an
// undated run is dated `today`. Ids are the runs' order of import (1, 2, ...), as the store numbers a fresh store's
// runs.
std::set<long long> referenceSelection(
    const std::vector<std::vector<Crafted>>& batches, RunSelection runs, const QString& asOf, const QString& today)
{
    struct Point {
        QString hardware, day;
        int concurrency = 0;
        std::size_t batch = 0;
        long long id = 0;
    };
    std::vector<Point> points;
    long long id = 0;
    for (std::size_t b = 0; b < batches.size(); ++b)
        for (const Crafted& c : batches[b]) {
            const QString day = c.date.isEmpty() ? today : c.date;
            ++id;
            if (asOf.isEmpty() || day <= asOf)
                points.push_back({ c.hardware, day, c.concurrency, b, id });
        }
    std::set<long long> out;
    if (runs == RunSelection::All) {
        for (const Point& p : points)
            out.insert(p.id);
        return out;
    }
    std::map<QString, std::pair<QString, std::size_t>> newest; // per line: (date, batch)
    for (const Point& p : points)
        if (!newest.count(p.hardware) || std::pair { p.day, p.batch } > newest[p.hardware])
            newest[p.hardware] = { p.day, p.batch };
    std::map<std::pair<QString, int>, long long> kept; // per line and concurrency: the run's last point
    for (const Point& p : points)
        if (std::pair { p.day, p.batch } == newest[p.hardware])
            kept[{ p.hardware, p.concurrency }] = p.id;
    for (const auto& [key, pointId] : kept)
        out.insert(pointId);
    return out;
}

std::set<long long> storeSelection(RunStore& store, const Scope& scope)
{
    std::vector<long long> ids;
    for (const Series& s : store.series(scope))
        ids.push_back(s.id);
    std::set<long long> out;
    for (const RunPoint& p : store.runPoints(ids, TputMetric::Total, scope))
        out.insert(p.runId);
    return out;
}

// Ties on one date (the later import wins, with only the concurrency it measured), an undated run (dated on its import
// day), a configuration that has no run after January (its January run stays the latest), and one that appears only
// in March.
const std::vector<std::vector<Crafted>> kBatches {
    { { QStringLiteral("b300"), 8, QStringLiteral("2026-01-10"), 900 },
        { QStringLiteral("b300"), 4, QStringLiteral("2026-01-10"), 500 },
        { QStringLiteral("b300"), 16, QStringLiteral("2026-01-10"), 1200 },
        { QStringLiteral("mi325x"), 8, QStringLiteral("2026-01-10"), 300 },
        { QStringLiteral("mi325x"), 4, QStringLiteral("2026-01-10"), 200 } },
    { { QStringLiteral("b300"), 8, QStringLiteral("2026-02-01"), 1000 },
        { QStringLiteral("b300"), 4, QStringLiteral("2026-02-01"), 600 },
        { QStringLiteral("mi325x"), 8, QStringLiteral("2026-02-01"), 350 } },
    { { QStringLiteral("b300"), 8, QStringLiteral("2026-02-01"), 1100 },
        { QStringLiteral("mi325x"), 8, QStringLiteral("2026-03-05"), 280 },
        { QStringLiteral("mi325x"), 4, QStringLiteral("2026-03-05"), 100 } },
    { { QStringLiteral("b300"), 8, QStringLiteral(""), 1300 } },
};

std::vector<Crafted> flattened()
{
    std::vector<Crafted> all;
    for (const auto& b : kBatches)
        all.insert(all.end(), b.begin(), b.end());
    return all;
}

QString todayText()
{
    return QString::fromStdString(dayText(dayOfEpochSeconds(QDateTime::currentSecsSinceEpoch())));
}

} // namespace

class TestHistory : public QObject {
    Q_OBJECT
private slots:
    void dates()
    {
        QVERIFY(isIsoDate("2024-02-29"));
        QVERIFY(!isIsoDate("2026-02-29"));
        QVERIFY(!isIsoDate("2026-13-01"));
        QVERIFY(!isIsoDate("2026-1-01"));
        QCOMPARE(dayOfEpochSeconds(0), 19700101);
        QCOMPARE(dayOfEpochSeconds(951782400), 20000229); // 2000-02-29 00:00 UTC
        QCOMPARE(QString::fromStdString(dayText(20260305)), QStringLiteral("2026-03-05"));
    }

    void selectionAsOfMatchesTheReference_data()
    {
        QTest::addColumn<int>("runs");
        QTest::addColumn<QString>("asOf");
        for (int runs : { int(RunSelection::Latest), int(RunSelection::All) })
            for (const char* asOf : { "", "2025-12-31", "2026-01-10", "2026-01-31", "2026-02-01", "2026-03-04",
                     "2026-03-05", "2099-01-01" })
                QTest::addRow("%s as of %s", runs ? "all" : "latest", *asOf ? asOf : "(latest)") << runs << asOf;
    }

    void selectionAsOfMatchesTheReference()
    {
        QFETCH(int, runs);
        QFETCH(QString, asOf);
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importBatches(*store, dir, kBatches));
        const auto mode = static_cast<RunSelection>(runs);
        const auto expected = referenceSelection(kBatches, mode, asOf, todayText());
        QCOMPARE(storeSelection(*store, craftedScope(mode, asOf.toStdString())), expected);
        // the runs the frontiers and exports read are the same ones
        std::vector<long long> ids;
        for (const Series& s : store->series(craftedScope(mode, {})))
            ids.push_back(s.id);
        std::set<long long> exported;
        for (const StoredRun& r : store->runsOfSeries(ids, craftedScope(mode, asOf.toStdString())))
            exported.insert(r.id);
        QCOMPARE(exported, expected);
        const RunStats stats
            = store->runStats(ids, TputMetric::Total, craftedScope(mode, asOf.toStdString()), 0.001, 0.00005);
        QCOMPARE(stats.runs, static_cast<long long>(expected.size()));
        // the explorer's replay builds the same scope data from the runs in memory as the store gives
        const Scope scope = craftedScope(mode, asOf.toStdString());
        const ScopeTimeline timeline = ScopeTimeline::load(*store, craftedScope(mode, {}), TputMetric::Total);
        const ScopeData read = loadScopeData(*store, scope, TputMetric::Total);
        const ScopeData replayed = scopeDataAsOf(timeline, scope, store->series(scope), TputMetric::Total);
        QCOMPARE(replayed.runCount, read.runCount);
        QCOMPARE(replayed.frontiers.size(), read.frontiers.size());
        for (std::size_t g = 0; g < read.frontiers.size(); ++g) {
            QVERIFY(replayed.frontiers[g].key == read.frontiers[g].key);
            QCOMPARE(replayed.frontiers[g].points.size(), read.frontiers[g].points.size());
            for (std::size_t k = 0; k < read.frontiers[g].points.size(); ++k) {
                QCOMPARE(replayed.frontiers[g].points[k].runId, read.frontiers[g].points[k].runId);
                QCOMPARE(replayed.frontiers[g].points[k].y, read.frontiers[g].points[k].y);
            }
            QCOMPARE(replayed.frontiers[g].hasSpread(), read.frontiers[g].hasSpread());
            std::set<long long> a, b;
            for (const RunPoint& p : replayed.runs[g].points)
                a.insert(p.runId);
            for (const RunPoint& p : read.runs[g].points)
                b.insert(p.runId);
            QCOMPARE(a, b);
        }
    }

    // The history at 50 tok/s/user: each day's reading is the selected concurrency-8 run's throughput (a knot).
    void historyAndDiffMatchTheReference()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importBatches(*store, dir, kBatches));
        HistoryRequest req;
        req.scope = craftedScope(RunSelection::Latest, {});
        req.target = 50;
        const ScopeTimeline timeline = ScopeTimeline::load(*store, req.scope, TputMetric::Total);
        auto history = computeHistory(timeline, bundledPricing(), req);
        QVERIFY(history);
        const std::vector<QString> days { QStringLiteral("2026-01-10"), QStringLiteral("2026-02-01"),
            QStringLiteral("2026-03-05"), todayText() };
        const auto all = flattened();
        QCOMPARE(history->size(), std::size_t(2));
        for (const HardwareHistory& h : *history) {
            QCOMPARE(h.points.size(), days.size());
            for (std::size_t d = 0; d < days.size(); ++d) {
                QCOMPARE(QString::fromStdString(dayText(h.points[d].day)), days[d]);
                std::optional<double> expected;
                for (long long id : referenceSelection(kBatches, RunSelection::Latest, days[d], todayText())) {
                    const Crafted& c = all[static_cast<std::size_t>(id - 1)];
                    if (c.hardware.toStdString() == h.hardware && c.concurrency == 8)
                        expected = c.tput;
                }
                QVERIFY(expected);
                QCOMPARE(h.points[d].row.entry.value.value_or(-1), *expected);
            }
        }
        // 2026-01-31 -> 2026-02-15: b300 900 -> 1100 (the later import of the tie), mi325x 300 -> 350
        LadderRequest ladder;
        ladder.scope = req.scope;
        ladder.targets = { 50 };
        auto diff = computeDiff(timeline, bundledPricing(), ladder, 20260131, 20260215);
        QVERIFY(diff);
        QCOMPARE(diff->size(), std::size_t(2));
        QCOMPARE((*diff)[0].hardware, std::string("b300"));
        QCOMPARE(*(*diff)[0].rows[0].changePct, 100.0 * (1100.0 / 900.0 - 1.0));
        QCOMPARE(*(*diff)[1].rows[0].changePct, 100.0 * (350.0 / 300.0 - 1.0));
    }

    // --runs all keeps both runs of each configuration: the low frontier is built from each configuration's lowest
    // run, the high from its highest, read at the knots: known values.
    void spreadOfRerunsHasKnownLowAndHigh()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importBatches(*store, dir,
            { { { QStringLiteral("b300"), 8, QStringLiteral("2026-01-10"), 300 },
                  { QStringLiteral("b300"), 4, QStringLiteral("2026-01-10"), 100 },
                  { QStringLiteral("mi325x"), 8, QStringLiteral("2026-01-10"), 330 } },
                { { QStringLiteral("b300"), 8, QStringLiteral("2026-02-01"), 400 },
                    { QStringLiteral("b300"), 4, QStringLiteral("2026-02-01"), 150 },
                    { QStringLiteral("mi325x"), 8, QStringLiteral("2026-02-01"), 600 } } }));
        FrontierCache cache(*store);
        LadderRequest req;
        req.scope = craftedScope(RunSelection::All, {});
        req.targets = { 50, 100 };
        req.reading = Reading::Frontier; // the spread of reruns is the frontier's
        auto ladders = computeLadder(cache, bundledPricing(), req);
        QVERIFY(ladders);
        const LadderEntry& b50 = (*ladders)[0].rows[0].entry;
        const LadderEntry& b100 = (*ladders)[0].rows[1].entry;
        QCOMPARE(*b50.value, 400.0);
        QCOMPARE(*b50.low, 300.0);
        QCOMPARE(*b50.high, 400.0);
        QCOMPARE(*b100.low, 100.0);
        QCOMPARE(*b100.high, 150.0);
        // mi325x [330, 600] overlaps b300 [300, 400] at 50: no winner
        const LadderEntry& m50 = (*ladders)[1].rows[0].entry;
        QVERIFY(spreadsOverlap(b50, m50));
        const auto ratios = baselineRatios(*ladders, "b300");
        QCOMPARE(ratios[1][0].status, BaselineStatus::WithinSpread);
        QVERIFY(QString::fromStdString(ratioText(ratios[1][0])).contains(QStringLiteral("within run-to-run spread")));
        const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(ladderJson(*ladders))).object();
        QCOMPARE(json[QStringLiteral("b300")].toArray()[0].toObject()[QStringLiteral("tput_low")].toDouble(), 300.0);
        QCOMPARE(json[QStringLiteral("b300")].toArray()[0].toObject()[QStringLiteral("tput_high")].toDouble(), 400.0);
        // latest: one run per configuration and a day each: no spread
        req.scope.runs = RunSelection::Latest;
        auto latest = computeLadder(cache, bundledPricing(), req);
        QVERIFY(latest);
        QCOMPARE(*(*latest)[0].rows[0].entry.value, 400.0);
        QVERIFY(!(*latest)[0].rows[0].entry.low);
        QVERIFY(QJsonDocument::fromJson(QByteArray::fromStdString(ladderJson(*latest)))
                    .object()[QStringLiteral("b300")]
                    .toArray()[0]
                    .toObject()[QStringLiteral("tput_low")]
                    .isNull());
    }

    // The InferenceX site draws each curve (hardware, engine, precision, spec decoding, disaggregation) from its newest
    // run, every parallelism that run measured: newest date, then highest workflow run id (its migrations 011 and 014;
    // before them, migration 007: each line, a configuration over its concurrencies). The fixture was sampled before
    // either rule, so some of its curves are stitched from several runs. The latest view gives back exactly the rows
    // of each curve's newest run (worked out here from the JSON), the per-configuration view those of each line's
    // (3 of the 435 rows are older runs of their line); with an older copy of every row imported beside it (dated
    // 2025-01-01, half the throughput), the view as of 2025-06-01 gives per curve (per line) the copies of the run
    // with the highest id (the copies share a date), and `all` gives everything.
    void realFixtureLatestViewIsTheBenchmarksEndpoint()
    {
        const QByteArray text = readAll(fixture(QStringLiteral("inferencex-app-api/benchmarks.json")));
        QVERIFY(!text.isEmpty());
        QJsonArray rows = QJsonDocument::fromJson(text).array();
        const auto lineOf = [](QJsonObject o) {
            for (const QString& k : { QStringLiteral("conc"), QStringLiteral("date"), QStringLiteral("run_url"),
                     QStringLiteral("metrics"), QStringLiteral("image") })
                o.remove(k);
            return QJsonDocument(o).toJson(QJsonDocument::Compact);
        };
        const auto runOf = [](const QJsonObject& o) {
            const QStringList parts = o[QStringLiteral("run_url")].toString().split(u'/');
            const qsizetype at = parts.indexOf(QStringLiteral("runs"));
            return std::pair { parts.value(at + 1).toLongLong(), parts.value(at + 3).toInt() };
        };
        // the curve (the site's rule since its migrations 011 and 014): model, lengths, hardware, engine, precision,
        // spec decoding and disaggregation; an agentic trace's (no lengths) without spec decoding and disaggregation
        const auto curveOf = [](const QJsonObject& o) {
            const bool agentic = o[QStringLiteral("isl")].toInt() == 0 && o[QStringLiteral("osl")].toInt() == 0;
            QJsonObject c;
            for (const QString& k : { QStringLiteral("model"), QStringLiteral("isl"), QStringLiteral("osl"),
                     QStringLiteral("hardware"), QStringLiteral("framework"), QStringLiteral("precision") })
                c[k] = o[k];
            if (!agentic) {
                c[QStringLiteral("spec_method")] = o[QStringLiteral("spec_method")];
                c[QStringLiteral("disaggregated")]
                    = o[QStringLiteral("disagg")].toBool() || o[QStringLiteral("is_multinode")].toBool();
            }
            return QJsonDocument(c).toJson(QJsonDocument::Compact);
        };
        // per line and per curve: the newest (date, run, attempt); the copies share a date: (run, attempt)
        std::map<QByteArray, std::tuple<QString, long long, int>> newest, newestOfCurve;
        std::map<QByteArray, std::pair<long long, int>> newestCopy, newestCopyOfCurve;
        const auto keepNewest = [](auto& map, const QByteArray& key, const auto& version) {
            auto [it, inserted] = map.try_emplace(key, version);
            if (!inserted && version > it->second)
                it->second = version;
        };
        for (const QJsonValue v : rows) {
            const QJsonObject o = v.toObject();
            const auto run = runOf(o);
            const std::tuple version { o[QStringLiteral("date")].toString(), run.first, run.second };
            keepNewest(newest, lineOf(o), version);
            keepNewest(newestOfCurve, curveOf(o), version);
            keepNewest(newestCopy, lineOf(o), run);
            keepNewest(newestCopyOfCurve, curveOf(o), run);
        }
        QJsonArray older;
        std::multiset<double> published, publishedPerLine, halved, halvedPerLine;
        for (const QJsonValue v : rows) {
            QJsonObject o = v.toObject();
            QJsonObject m = o[QStringLiteral("metrics")].toObject();
            const auto [run, attempt] = runOf(o);
            const std::tuple version { o[QStringLiteral("date")].toString(), run, attempt };
            if (newest[lineOf(o)] == version)
                publishedPerLine.insert(m[QStringLiteral("tput_per_gpu")].toDouble());
            if (newestOfCurve[curveOf(o)] == version)
                published.insert(m[QStringLiteral("tput_per_gpu")].toDouble());
            for (const QString& k : { QStringLiteral("tput_per_gpu"), QStringLiteral("output_tput_per_gpu"),
                     QStringLiteral("input_tput_per_gpu") })
                if (m.contains(k))
                    m[k] = m[k].toDouble() / 2;
            if (newestCopy[lineOf(o)] == std::pair { run, attempt })
                halvedPerLine.insert(m[QStringLiteral("tput_per_gpu")].toDouble());
            if (newestCopyOfCurve[curveOf(o)] == std::pair { run, attempt })
                halved.insert(m[QStringLiteral("tput_per_gpu")].toDouble());
            o[QStringLiteral("metrics")] = m;
            o[QStringLiteral("date")] = QStringLiteral("2025-01-01");
            older.append(o);
        }
        QCOMPARE(publishedPerLine.size(), std::size_t(432));
        QVERIFY(published.size() < publishedPerLine.size()); // a curve's newest run replaced other parallelisms
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString olderPath = dir.filePath(QStringLiteral("older.json"));
        QVERIFY(writeFile(olderPath, QJsonDocument(older).toJson()));
        for (const QString& path : { olderPath, fixture(QStringLiteral("inferencex-app-api/benchmarks.json")) }) {
            auto out = importPath(*store, path.toStdString(), {});
            QVERIFY2(out.front().result, out.front().result ? "" : out.front().result.error().c_str());
            QCOMPARE(out.front().result->imported, static_cast<std::size_t>(rows.size()));
        }
        auto tputs = [&](RunSelection runs, const std::string& asOf) {
            std::multiset<double> out;
            for (const ScopeSummary& sc : store->scopes()) {
                Scope s;
                s.model = sc.model;
                s.isl = sc.isl;
                s.osl = sc.osl;
                s.workload = sc.workload;
                s.runs = runs;
                s.asOf = asOf;
                std::vector<long long> ids;
                for (const Series& se : store->series(s))
                    ids.push_back(se.id);
                for (const RunPoint& p : store->runPoints(ids, TputMetric::Total, s))
                    out.insert(p.tputPerGpu);
            }
            return out;
        };
        QCOMPARE(tputs(RunSelection::Latest, {}), published);
        QCOMPARE(tputs(RunSelection::Latest, "2025-06-01"), halved);
        QCOMPARE(tputs(RunSelection::LatestPerConfiguration, {}), publishedPerLine);
        QCOMPARE(tputs(RunSelection::LatestPerConfiguration, "2025-06-01"), halvedPerLine);
        QCOMPARE(tputs(RunSelection::All, {}).size(), std::size_t(2 * rows.size()));
    }

    // A view written as a command reads back as the same view, through a shell's quoting.
    void viewCommandRoundTrips()
    {
        ViewOptions v;
        Scope& s = v.request.scope;
        s.model = "Deep'Seek \"R1\" $HOME";
        s.workload = "agentic coding";
        s.hardware = { "b300", "mi325x" };
        s.engines = { "vllm" };
        s.dateFrom = "2026-01-01";
        s.asOf = "2026-03-05";
        s.runs = RunSelection::All;
        s.includeMarked = true;
        v.request.targets = { 33.3, 50, 0.1 };
        v.request.metric = TputMetric::Output;
        v.request.hideSparse = true;
        v.request.reading = Reading::Frontier;
        v.request.price.customUsdPerGpuHour = 2.37;
        v.baseline = "mi325x";
        const std::string command = viewCommand(v);
        QVERIFY2(command.find(" --reading frontier") != std::string::npos, command.c_str());
        auto words = splitCommandLine(command);
        QVERIFY(words);
        QCOMPARE(words->at(0), std::string("paretoscope-cli"));
        // numbers as a person writes them, and a command copied over several lines reads the same
        QVERIFY2(command.find(" --targets 33.3,50,0.1 ") != std::string::npos, command.c_str());
        auto continued = splitCommandLine("paretoscope-cli ladder \\\n  --model m \\\n  --isl 1 --osl 1");
        QVERIFY(continued);
        QCOMPARE(*continued,
            (std::vector<std::string> { "paretoscope-cli", "ladder", "--model", "m", "--isl", "1", "--osl", "1" }));
        auto back = parseViewArgs(*words);
        QVERIFY2(back, back ? "" : back.error().c_str());
        QCOMPARE(viewCommand(*back), command);
        QCOMPARE(back->request.scope.model, s.model);
        QCOMPARE(back->request.scope.workload, s.workload);
        QCOMPARE(back->request.targets, v.request.targets);
        QCOMPARE(*back->request.price.customUsdPerGpuHour, 2.37);
        QVERIFY(back->request.scope.runs == RunSelection::All);
        QVERIFY(back->request.reading == Reading::Frontier);
        QCOMPARE(back->request.scope.asOf, s.asOf);
        // a shell agrees on the words
        QProcess sh;
        sh.start(QStringLiteral("sh"),
            { QStringLiteral("-c"),
                QString::fromStdString("printf '%s\\n' " + command.substr(command.find(' ') + 1)) });
        QVERIFY(sh.waitForFinished(10000));
        QStringList printed = QString::fromUtf8(sh.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(printed.size(), static_cast<int>(words->size()) - 1);
        for (int i = 0; i < printed.size(); ++i)
            QCOMPARE(printed[i].toStdString(), words->at(static_cast<std::size_t>(i) + 1));
        // bad values are refused, naming the option
        for (const char* bad : { "--runs newest", "--as-of 2026-02-30", "--targets 0", "--tier x --price 1", "--bogus",
                 "--reading best" }) {
            auto refused = parseViewArgs(*splitCommandLine(std::string("--model m --isl 1 --osl 1 ") + bad));
            QVERIFY2(!refused, bad);
        }
    }

    // The copied command, run, prints the same ladder JSON as the view computed in the process.
    void copiedCommandReproducesTheLadder()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importBatches(*store, dir, kBatches));
        ViewOptions v;
        v.request.scope = craftedScope(RunSelection::Latest, "2026-02-15");
        v.request.targets = { 50, 100 };
        FrontierCache cache(*store);
        auto ladders = computeLadder(cache, bundledPricing(), v.request);
        QVERIFY(ladders);
        QStringList args;
        const auto words = splitCommandLine(viewCommand(v));
        QVERIFY(words);
        for (const std::string& w : *words)
            args << QString::fromStdString(w);
        args.removeFirst();
        QProcess p;
        p.start(
            cliProgram(), args + QStringList { QStringLiteral("--db"), dir.filePath(QStringLiteral("store.sqlite")) });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput(), QByteArray::fromStdString(ladderJson(*ladders)));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestHistory)
#include "tests/support/testpaths.h"
#include "tst_history.moc"
