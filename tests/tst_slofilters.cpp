// Service-level limits as scope filters (Scope::ttftMax on the median or p99 TTFT, Scope::tpotMax) in every store
// query that reads a scope, and the energy metrics (docs/architecture.md section 11) of the ladder and the chart,
// checked against values computed here from the published figures.
#include <QtTest>

#include <algorithm>
#include <set>

#include "core/analysis/chartdata.h"
#include "core/analysis/energy.h"
#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/scopetimeline.h"
#include "core/import/bundled.h"
#include "core/store/importwriter.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

// One run of the test series: its concurrency (its own configuration), latencies (0: not given) and measured power.
struct SloRun {
    int concurrency;
    double ttftMedian, ttftP99, tpotMedian, interactivity, tput, powerW;
};

// At, just above and below 2 s of TTFT (median and p99) and 20 ms of TPOT; missing statistics; TPOT given only by
// the interactivity (1 / 40 = 25 ms).
const SloRun kSloRuns[] = {
    { 1, 1.0, 1.9, 0.010, 100, 1000, 700 },
    { 2, 2.0, 2.5, 0.020, 50, 2000, 800 },
    { 4, 2.0000001, 2.0, 0.0200001, 49.99, 3000, 900 },
    { 8, 0, 0, 0, 40, 4000, 0 },
    { 16, 0.5, 0, 0.005, 200, 500, 600 },
};

RunRecord record(const SloRun& r, const std::string& hardware = "b300")
{
    RunRecord rec;
    rec.model = "slo-model";
    rec.hardware = hardware;
    rec.engine = "vllm";
    rec.precision = "fp4";
    rec.isl = 1024;
    rec.osl = 1024;
    rec.workload = randomWorkloadName(1024, 1024);
    rec.tp = 8;
    rec.gpus = 8;
    rec.concurrency = r.concurrency;
    rec.runDate = "2026-05-01";
    rec.tputPerGpu = r.tput;
    rec.interactivity = r.interactivity;
    if (r.ttftMedian > 0)
        rec.ttft.median = r.ttftMedian;
    if (r.ttftP99 > 0)
        rec.ttft.p99 = r.ttftP99;
    if (r.tpotMedian > 0)
        rec.tpot.median = r.tpotMedian;
    if (r.powerW > 0)
        rec.avgPowerW = r.powerW;
    return rec;
}

bool store(RunStore& s, const std::vector<RunRecord>& records, const std::string& name)
{
    auto w = s.beginImport(Provenance { name, std::string(64, 'a'), "paretoscope-json", 1700000000, {} });
    if (!w)
        return false;
    for (std::size_t i = 0; i < records.size(); ++i)
        if (!(*w)->add(records[i], i, RecordKeys::of(records[i])))
            return false;
    return (*w)->commit().ok();
}

// Whether a run meets the limits, computed here from the table (not by the code under test).
bool meets(const SloRun& r, std::optional<double> ttftMax, LatencyStat stat, std::optional<double> tpotMax)
{
    const double ttft = stat == LatencyStat::P99 ? r.ttftP99 : r.ttftMedian;
    if (ttftMax && !(ttft > 0 && ttft <= *ttftMax))
        return false;
    const double tpot = r.tpotMedian > 0 ? r.tpotMedian : (r.interactivity > 0 ? 1.0 / r.interactivity : 0);
    return !tpotMax || (tpot > 0 && tpot <= *tpotMax);
}

Scope baseScope()
{
    return lengthScope("slo-model", 1024, 1024);
}

} // namespace

class TestSloFilters : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    std::vector<long long> m_series;

private slots:
    void initTestCase()
    {
        m_store = openTempStore(m_dir);
        QVERIFY(m_store);
        std::vector<RunRecord> records;
        for (const SloRun& r : kSloRuns)
            records.push_back(record(r));
        QVERIFY(store(*m_store, records, "slo.json"));
        for (const Series& s : m_store->series(baseScope()))
            m_series.push_back(s.id);
        QCOMPARE(m_series.size(), std::size_t(1));
    }

    void everyQueryHonoursTheLimits_data()
    {
        QTest::addColumn<double>("ttftMax"); // 0: none
        QTest::addColumn<bool>("p99");
        QTest::addColumn<double>("tpotMax");
        QTest::newRow("no limit") << 0.0 << false << 0.0;
        QTest::newRow("median TTFT at 2 s: at the limit meets, just above does not") << 2.0 << false << 0.0;
        QTest::newRow("median TTFT just under 2 s") << 1.9999999 << false << 0.0;
        QTest::newRow("p99 TTFT at 2 s: a run without p99 does not meet it") << 2.0 << true << 0.0;
        QTest::newRow("p99 TTFT 1.9 s") << 1.9 << true << 0.0;
        QTest::newRow("TPOT 20 ms") << 0.0 << false << 0.020;
        QTest::newRow("TPOT 25 ms: 1 / interactivity where TPOT is missing") << 0.0 << false << 0.025;
        QTest::newRow("both") << 2.0 << false << 0.015;
        QTest::newRow("nothing meets") << 0.1 << false << 0.0;
    }

    // points (the SQL path and the selected one), runPoints, timedRuns, runStats, runsOfSeries, the runs tab's pages
    // and count, the scope timeline and the frontier cache all keep exactly the runs that meet the limits.
    void everyQueryHonoursTheLimits()
    {
        QFETCH(double, ttftMax);
        QFETCH(bool, p99);
        QFETCH(double, tpotMax);
        Scope scope = baseScope();
        if (ttftMax > 0)
            scope.ttftMax = ttftMax;
        scope.ttftStat = p99 ? LatencyStat::P99 : LatencyStat::Median;
        if (tpotMax > 0)
            scope.tpotMax = tpotMax;
        std::set<double> expected; // by throughput, unique in the table
        for (const SloRun& r : kSloRuns)
            if (meets(r, scope.ttftMax, scope.ttftStat, scope.tpotMax))
                expected.insert(r.tput);
        auto tputs = [](const auto& list, auto get) {
            std::set<double> out;
            for (const auto& x : list)
                out.insert(get(x));
            return out;
        };
        const auto byRunPoint = [](const RunPoint& p) { return p.tputPerGpu; };
        QCOMPARE(tputs(m_store->runPoints(m_series, TputMetric::Total, scope), byRunPoint), expected);
        QCOMPARE(tputs(m_store->timedRuns(m_series, TputMetric::Total, scope),
                     [](const TimedRun& r) { return r.point.tputPerGpu; }),
            expected);
        QCOMPARE(
            tputs(m_store->points(m_series, TputMetric::Total, scope), [](const Point& p) { return p.y; }), expected);
        Scope all = scope;
        all.runs = RunSelection::All; // the query without a run selection: the limits in SQL
        QCOMPARE(
            tputs(m_store->points(m_series, TputMetric::Total, all), [](const Point& p) { return p.y; }), expected);
        QCOMPARE(m_store->runStats(m_series, TputMetric::Total, all, 0.001, 0.001).runs, qint64(expected.size()));
        QCOMPARE(m_store->runStats(m_series, TputMetric::Total, scope, 0.001, 0.001).runs, qint64(expected.size()));
        const auto byStored = [](const StoredRun& r) { return *r.record.tputPerGpu; };
        QCOMPARE(tputs(m_store->runsOfSeries(m_series, scope), byStored), expected);
        QCOMPARE(tputs(m_store->runsOfSeries(m_series, all), byStored), expected);
        QCOMPARE(tputs(m_store->runsOfSeriesPage(m_series, scope, 0, 100), byStored), expected);
        QCOMPARE(m_store->runCountOfSeries(m_series, scope), qint64(expected.size()));
        QCOMPARE(ScopeTimeline::load(*m_store, scope, TputMetric::Total).runCount(), expected.size());
        // the cache keys on the limits: the same cache answers each scope with its own frontier
        FrontierCache cache(*m_store);
        QCOMPARE(cache.frontiers(baseScope(), TputMetric::Total).size(), std::size_t(1));
        const auto& limited = cache.frontiers(scope, TputMetric::Total);
        QCOMPARE(limited.empty(), expected.empty());
        for (const GroupFrontier& g : limited)
            for (const Point& p : g.points)
                QVERIFY(expected.count(p.y));
    }

    // A limit is a run filter like the dates, applied before the run selection: with --runs latest a configuration
    // whose latest run fails it is read at its latest run that meets it.
    void latestAmongTheRunsThatMeetTheLimits()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        SloRun older { 32, 1.0, 0, 0.010, 100, 5000, 0 };
        SloRun newer { 32, 3.0, 0, 0.010, 100, 6000, 0 };
        RunRecord a = record(older), b = record(newer);
        a.runDate = "2026-04-01";
        b.runDate = "2026-05-01";
        QVERIFY(store(*s, { a, b }, "reruns.json"));
        std::vector<long long> ids;
        for (const Series& se : s->series(baseScope()))
            ids.push_back(se.id);
        QCOMPARE(s->runPoints(ids, TputMetric::Total, baseScope()).at(0).tputPerGpu, 6000.0);
        Scope limited = baseScope();
        limited.ttftMax = 2.0;
        const auto kept = s->runPoints(ids, TputMetric::Total, limited);
        QCOMPARE(kept.size(), std::size_t(1));
        QCOMPARE(kept[0].tputPerGpu, 5000.0);
    }

    // The SQL of the limits is empty without a limit: a query without limits is the one it always was.
    void noLimitNoCondition()
    {
        QCOMPARE(sloCondition(baseScope(), "r"), std::string());
        Scope s = baseScope();
        s.ttftMax = 2;
        s.ttftStat = LatencyStat::P99;
        QVERIFY(sloCondition(s, "r").find("paretoscope_latency_stat(r.latency_stats, 2) <= 2") != std::string::npos);
    }

    // All-in energy on the bundled dataset against kW x 1,000 / tok/s and tok/s x 1,000 / kW computed here from the
    // published readings (docs/architecture.md section 14) and the registry's kW (docs/architecture.md section 14:
    // B300 1.90, MI325X 1.69); relative 1e-12.
    void allInEnergyOfThePublishedReadings_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<double>("target");
        QTest::addColumn<double>("tput");
        QTest::addColumn<double>("kw");
        QTest::newRow("b300 at 50") << "b300" << 50.0 << 328417.0 << 1.90;
        QTest::newRow("b300 at 200") << "b300" << 200.0 << 88417.0 << 1.90;
        QTest::newRow("mi325x at 30") << "mi325x" << 30.0 << 24472.0 << 1.69;
        QTest::newRow("mi325x at 100") << "mi325x" << 100.0 << 11287.0 << 1.69;
    }

    void allInEnergyOfThePublishedReadings()
    {
        QFETCH(QString, hardware);
        QFETCH(double, target);
        QFETCH(double, tput);
        QFETCH(double, kw);
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        QVERIFY(importBundledDataset(*s).ok());
        FrontierCache cache(*s);
        LadderRequest req;
        req.scope.model = std::string(kBundledModel);
        req.scope.workload = std::string(kBundledWorkload);
        req.targets = { target };
        auto ladders = computeLadder(cache, bundledPricing(), req);
        QVERIFY(ladders);
        const auto it = std::find_if(ladders->begin(), ladders->end(),
            [&](const HardwareLadder& l) { return l.hardware == hardware.toStdString(); });
        QVERIFY(it != ladders->end());
        const LadderRow& row = it->rows.at(0);
        QCOMPARE(*row.entry.value, tput);
        QVERIFY(qAbs(*row.allInJoulesPerToken / (kw * 1000.0 / tput) - 1) < 1e-12);
        QVERIFY(qAbs(*row.tokensPerSecondPerMw / (tput * 1000.0 / kw) - 1) < 1e-12);
        QVERIFY(!row.measuredJoulesPerToken); // the published readings carry no power
    }

    // Measured J/token is read on the group's frontier of tokens per joule: at a knot, W / tok/s of that run; a
    // hardware the power registry lacks has no all-in value (not 0); the chart converts each run and its frontier.
    void measuredEnergyAndMissingPower()
    {
        QTemporaryDir dir;
        auto s = openTempStore(dir);
        std::vector<RunRecord> records;
        for (const SloRun& r : kSloRuns)
            records.push_back(record(r, "tpu-v9"));
        QVERIFY(store(*s, records, "tpu.json"));
        FrontierCache cache(*s);
        LadderRequest req;
        req.scope = baseScope();
        req.targets = { 100, 50 };
        auto ladders = computeLadder(cache, bundledPricing(), req);
        QVERIFY(ladders && ladders->size() == 1);
        const LadderRow& at100 = ladders->at(0).rows.at(0);
        QVERIFY(at100.entry.value);
        QVERIFY(!at100.allInJoulesPerToken && !at100.tokensPerSecondPerMw);
        // tokens per joule of the powered runs: 1000/700 at 100, 2000/800 at 50, 3000/900 at 49.99, 500/600 at 200;
        // the frontier keeps (49.99, 3.33), (50, 2.5), (100, 1.43), (200, 0.83): at 100, 700 / 1000 J/token
        QVERIFY(qAbs(*at100.measuredJoulesPerToken - 700.0 / 1000.0) < 1e-12);
        QVERIFY(qAbs(*ladders->at(0).rows.at(1).measuredJoulesPerToken - 800.0 / 2000.0) < 1e-12);
        const ScopeData data = loadScopeData(*s, baseScope(), TputMetric::Total);
        ChartRequest chart;
        chart.y = ChartY::MeasuredJoulesPerToken;
        const ChartData drawn = chartData(data, bundledPricing(), chart);
        QCOMPARE(drawn.series.size(), std::size_t(1));
        QCOMPARE(drawn.series[0].runs.size(), std::size_t(4)); // the run without power is not drawn
        for (const Point& p : drawn.series[0].runs)
            for (const SloRun& r : kSloRuns)
                if (r.interactivity == p.x)
                    QVERIFY(qAbs(p.y - r.powerW / r.tput) < 1e-12);
        chart.y = ChartY::JoulesPerToken;
        QVERIFY(!chartData(data, bundledPricing(), chart).series[0].priced); // no kW for tpu-v9: not drawn at 0
    }
};

PARETOSCOPE_GUILESS_SUITE(TestSloFilters)
#include "tst_slofilters.moc"
