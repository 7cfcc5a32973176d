// The capacity plan (docs/architecture.md section 12) and its TCO model: GPUs, replicas, nodes or racks, power, energy
// and cost per hardware. Expectations are computed here from the crafted readings, the published power and price
// figures (docs/architecture.md section 14) and, between knots and on the real fixtures, the ladder's
// reading: never by the plan.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <map>
#include <set>

#include "core/analysis/frontiercache.h"
#include "core/analysis/plan.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "tests/support/plancrafted.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::testsupport::crafted;

class TestPlan : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;

private slots:
    void initTestCase()
    {
        std::string error;
        m_store = craftedStore(m_dir, error);
        QVERIFY2(m_store, error.c_str());
    }

    // Targets on a knot, so that the reading R is that knot's published throughput.
    void arithmetic_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("unit");
        QTest::addColumn<double>("demand");
        QTest::addColumn<double>("target");
        QTest::addColumn<double>("headroom");
        QTest::addColumn<int>("perNode"); // an override; 0: the shipped figure
        QTest::addColumn<double>("tokPerS"); // the demand in tok/s of its metric, by hand
        const int tokS = int(DemandUnit::TokPerS), outS = int(DemandUnit::OutputTokPerS);
        QTest::newRow("tok/s") << "b300" << tokS << 1e6 << 40.0 << 0.25 << 0 << 1e6;
        QTest::newRow("tok/day") << "b300" << int(DemandUnit::TokPerDay) << 8.64e10 << 40.0 << 0.25 << 0 << 1e6;
        QTest::newRow("req/s") << "b300" << int(DemandUnit::ReqPerS) << 100.0 << 40.0 << 0.25 << 0 << 100.0 * 2048;
        QTest::newRow("output-tok/s") << "b300" << outS << 5e5 << 40.0 << 0.25 << 0 << 5e5;
        QTest::newRow("users") << "b300" << int(DemandUnit::Users) << 5000.0 << 40.0 << 0.25 << 0 << 5000.0 * 40;
        QTest::newRow("no headroom") << "b300" << tokS << 1e6 << 40.0 << 0.0 << 0 << 1e6;
        QTest::newRow("headroom 50%") << "b300" << tokS << 1e6 << 40.0 << 0.5 << 0 << 1e6;
        QTest::newRow("tp4 replica") << "b300" << tokS << 1e6 << 80.0 << 0.25 << 0 << 1e6;
        QTest::newRow("4 per node") << "b300" << tokS << 1e6 << 40.0 << 0.25 << 4 << 1e6;
        QTest::newRow("8P+8D") << "h200" << tokS << 3e5 << 50.0 << 0.25 << 0 << 3e5;
        QTest::newRow("8P+8D output") << "h200" << outS << 1e5 << 50.0 << 0.25 << 0 << 1e5;
        QTest::newRow("NVL72 tp4") << "gb200" << tokS << 1e6 << 30.0 << 0.25 << 0 << 1e6;
        QTest::newRow("NVL72 48P+48D") << "gb200" << tokS << 1e6 << 60.0 << 0.25 << 0 << 1e6;
    }
    void arithmetic()
    {
        QFETCH(QString, hardware);
        QFETCH(int, unit);
        QFETCH(double, demand);
        QFETCH(double, target);
        QFETCH(double, headroom);
        QFETCH(int, perNode);
        QFETCH(double, tokPerS);
        PlanRequest req = request(craftedScope(), demand, DemandUnit(unit), target, headroom);
        if (perNode > 0)
            req.gpusPerNode[hardware.toStdString()] = perNode;
        auto plan = computePlan(loadPlanFrontiers(*m_store, req.scope), req);
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        QVERIFY(near(plan->demandTokensPerSecond, tokPerS));
        const HardwarePlan* h = planOf(*plan, hardware.toStdString());
        QVERIFY(h);
        QCOMPARE(planStatusName(h->status), std::string_view("ok"));

        const Knot& k = knotAt(hardware, target);
        const bool output = DemandUnit(unit) == DemandUnit::OutputTokPerS || DemandUnit(unit) == DemandUnit::Users;
        const double R = output ? k.output : k.total;
        const int r = k.prefill > 0 ? k.prefill + k.decode : k.tp;
        // InferenceX's output tok/s/GPU of a disaggregated run counts decode GPUs: spread over all of the replica's
        const double perGpu = R * (output && k.prefill > 0 ? double(k.decode) / r : 1.0);
        const Published pub = kPublished.at(hardware);
        const int n = perNode > 0 ? perNode : pub.perNode;
        const Expected e = expectedSizing(tokPerS, headroom, perGpu, r, n);
        QCOMPARE(*h->tputPerGpu, R);
        QVERIFY(near(*h->tputPerSizedGpu, perGpu));
        QCOMPARE(h->replicaGpus, r);
        QVERIFY(near(h->gpusExact, e.gpusExact));
        QCOMPARE(double(h->gpus), e.gpus);
        QCOMPARE(double(h->replicas), e.replicas);
        QCOMPARE(double(h->nodes), e.nodes);
        QCOMPARE(h->nodeUnit, std::string(pub.perNode == 72 ? "rack" : "node"));
        QCOMPARE(h->sizing->concurrency, k.concurrency);
        QCOMPARE(h->sizing->prefillGpus, k.prefill);
        QCOMPARE(h->sizing->disaggregated, k.prefill > 0);
        QCOMPARE(h->sizing->interactivity, target);
        // power and energy: all-in kW per GPU (docs/architecture.md section 14), never times a PUE
        QVERIFY(near(*h->powerKw, e.gpus * pub.kw));
        QVERIFY(near(*h->powerMw, e.gpus * pub.kw / 1000));
        QVERIFY(near(*h->gpuTdpKw, e.gpus * pub.tdpW / 1000));
        QVERIFY(near(*h->energyJPerToken, pub.kw * 1000 / perGpu));
        QVERIFY(near(*h->tokensPerSPerMw, perGpu * 1000 / pub.kw));
        QCOMPARE(h->measuredJPerToken.has_value(), k.powerW > 0);
        if (k.powerW > 0)
            QVERIFY(near(*h->measuredJPerToken, k.powerW / perGpu));
        // cost at the hyperscaler tier (docs/architecture.md section 14)
        QCOMPARE(*h->usdPerGpuHour, pub.usd);
        QVERIFY(near(*h->costPerHour, e.gpus * pub.usd));
        QVERIFY(near(*h->costPerMonth, e.gpus * pub.usd * 730));
        QVERIFY(near(*h->costPerMTok, pub.usd / (perGpu * 3600) * 1e6));
        QVERIFY(near(*h->costPerMTokEffective, e.gpus * pub.usd / (tokPerS * 3600) * 1e6));
    }

    // A frontier reading across two configurations is not deployed: at 50 tok/s/user B300's frontier interpolates
    // between TP8 at 40 and TP4 at 80 (two configurations); no configuration of it covers 50, so the plan sizes on the
    // best point faster than the target (TP4 at 80: 3,000 tok/s/GPU, replicas of 4) and shows the frontier's reading
    // beside it. With the target exact, B300 is not sized.
    void acrossConfigurationsIsNotDeployed()
    {
        PlanRequest req = request(craftedScope(), 1e6, DemandUnit::TokPerS, 50);
        FrontierCache cache(*m_store);
        LadderRequest lr;
        lr.scope = req.scope;
        lr.targets = { 50 };
        auto ladder = computeLadder(cache, bundledPricing(), lr);
        QVERIFY(ladder);
        double frontier = 0;
        for (const HardwareLadder& l : *ladder)
            if (l.hardware == "b300")
                frontier = *l.rows[0].entry.value;
        QVERIFY(frontier > 3000 && frontier < 8000);
        const PlanFrontiers data = loadPlanFrontiers(*m_store, req.scope);
        auto plan = computePlan(data, req);
        QVERIFY(plan);
        const HardwarePlan* h = planOf(*plan, "b300");
        QCOMPARE(h->status, PlanStatus::FasterThanTarget);
        QCOMPARE(h->reading, PlanReading::Measured);
        QCOMPARE(*h->tputPerGpu, 3000.0);
        QCOMPARE(h->deliveredInteractivity, 80.0);
        QCOMPARE(h->sizing->interactivity, 80.0);
        QCOMPARE(h->sizing->tp, 4);
        QVERIFY(!h->lower);
        QCOMPARE(*h->frontierTputPerGpu, frontier);
        QVERIFY(near(*h->frontierRatio, frontier / 3000));
        QCOMPARE(h->replicaGpus, 4);
        const Expected e = expectedSizing(1e6, 0.25, 3000, 4, 8);
        QCOMPARE(double(h->gpus), e.gpus);
        QCOMPARE(double(h->nodes), e.nodes);
        QCOMPARE(QString::fromStdString(deployAsText(*h)), QStringLiteral("TP4 EP1 at concurrency 4"));
        QCOMPARE(QString::fromStdString(planReadingWords(*h)),
            QStringLiteral("faster than the target: 80.0 tok/s/user, measured at concurrency 4"));
        // within one configuration: H200 8P+8D between its concurrencies 256 (20 tok/s/user) and 64 (50)
        const HardwarePlan* h200 = planOf(*plan, "h200");
        QCOMPARE(h200->status, PlanStatus::Ok); // 50 is its knot: measured there
        QCOMPARE(h200->reading, PlanReading::Measured);
        req.target = 35;
        plan = computePlan(data, req);
        h200 = planOf(*plan, "h200");
        QCOMPARE(h200->status, PlanStatus::Ok);
        QCOMPARE(h200->reading, PlanReading::Interpolated);
        QCOMPARE(h200->sizing->concurrency, 64);
        QCOMPARE(h200->lower->concurrency, 256);
        // about: log concurrency straight against log interactivity between the two
        const double f = std::log(35.0 / 50) / std::log(20.0 / 50);
        QVERIFY(near(h200->concurrency, 64 * std::pow(256.0 / 64, f)));
        QCOMPARE(QString::fromStdString(deployAsText(*h200)),
            QStringLiteral("8P+8D at about concurrency %1 (between the measured 64 and 256)")
                .arg(std::lround(64 * std::pow(256.0 / 64, f))));
        // exact: what no configuration delivers at 50 is not sized
        req.target = 50;
        req.exactTarget = true;
        plan = computePlan(data, req);
        QCOMPARE(planOf(*plan, "b300")->status, PlanStatus::OutOfRange); // points below and above, none at 50
        QVERIFY(!planOf(*plan, "b300")->costPerMonth);
        QCOMPARE(planOf(*plan, "h200")->status, PlanStatus::Ok); // its knot at 50 is exactly the target
    }

    // Only runs within the limits count; a hardware none of whose runs meets them says so.
    void sloLimits_data()
    {
        QTest::addColumn<double>("ttftMax"); // 0: none
        QTest::addColumn<bool>("p99");
        QTest::addColumn<double>("tpotMax"); // 0: none
        QTest::addColumn<double>("target");
        QTest::addColumn<QStringList>("statuses"); // b300 gb200 h200 mi325x
        QTest::addColumn<double>("b300");
        // the target is a floor: a hardware whose qualifying points are all faster is sized at the best of them;
        // an interpolation needs both its neighbours within the limits
        QTest::newRow("no limit") << 0.0 << false << 0.0 << 40.0
                                  << QStringList { QStringLiteral("ok"), QStringLiteral("faster_than_target"),
                                         QStringLiteral("ok"), QStringLiteral("ok") }
                                  << 8000.0;
        QTest::newRow("median 2 s") << 2.0 << false << 0.0 << 40.0
                                    << QStringList { QStringLiteral("ok"), QStringLiteral("faster_than_target"),
                                           QStringLiteral("ok"), QStringLiteral("slo_not_met") }
                                    << 8000.0;
        QTest::newRow("median 0.5 s") << 0.5 << false << 0.0 << 20.0
                                      << QStringList { QStringLiteral("faster_than_target"),
                                             QStringLiteral("faster_than_target"), QStringLiteral("faster_than_target"),
                                             QStringLiteral("slo_not_met") }
                                      << 8000.0;
        QTest::newRow("p99 1 s") << 1.0 << true << 0.0 << 40.0
                                 << QStringList { QStringLiteral("ok"), QStringLiteral("faster_than_target"),
                                        QStringLiteral("faster_than_target"), QStringLiteral("slo_not_met") }
                                 << 8000.0;
        QTest::newRow("tpot 20 ms") << 0.0 << false << 0.02 << 80.0
                                    << QStringList { QStringLiteral("ok"), QStringLiteral("above_range"),
                                           QStringLiteral("above_range"), QStringLiteral("slo_not_met") }
                                    << 3000.0;
    }
    void sloLimits()
    {
        QFETCH(double, ttftMax);
        QFETCH(bool, p99);
        QFETCH(double, tpotMax);
        QFETCH(double, target);
        QFETCH(QStringList, statuses);
        QFETCH(double, b300);
        PlanRequest req = request(craftedScope(), 1e5, DemandUnit::TokPerS, target);
        if (ttftMax > 0)
            req.scope.ttftMax = ttftMax;
        req.scope.ttftStat = p99 ? LatencyStat::P99 : LatencyStat::Median;
        if (tpotMax > 0)
            req.scope.tpotMax = tpotMax;
        auto plan = computePlan(loadPlanFrontiers(*m_store, req.scope), req);
        QVERIFY(plan);
        QStringList got;
        for (const HardwarePlan& h : plan->hardware)
            got << QString::fromStdString(std::string(planStatusName(h.status)));
        QCOMPARE(got, statuses);
        if (b300 > 0)
            QCOMPARE(*planOf(*plan, "b300")->tputPerGpu, b300);
    }

    // Effective $/GPU/hr = capital / (years x 8,760) + kW x (PUE unless all-in) x $/kWh + other, by hand.
    void tcoPrice_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<double>("energyKw"); // the kW the energy part is paid on, PUE included
        QTest::addColumn<QString>("basis");
        const double pue = 1.4;
        QTest::newRow("all-in") << R"("power_basis": "all_in", "power_kw": 1.9)" << 1.9 << "all_in";
        QTest::newRow("IT") << R"("power_basis": "it", "power_kw": 1.2)" << 1.2 * pue << "it";
        QTest::newRow("TDP") << R"("power_basis": "tdp")" << 1.2 * pue
                             << "tdp"; // B300 TDP 1,200 W (docs/architecture.md section 14)
        // the sizing knot at 40 tok/s/user carries avg_power_w 900
        QTest::newRow("measured") << R"("power_basis": "measured")" << 0.9 * pue << "measured";
    }
    void tcoPrice()
    {
        QFETCH(QString, entry);
        QFETCH(double, energyKw);
        QFETCH(QString, basis);
        const QString text = QStringLiteral(R"({"source": "test", "defaults": {"amortization_years": 5, "pue": 1.4},
            "hardware": {"B300": {"capex_per_gpu_usd": 60000, "electricity_usd_per_kwh": 0.1,
            "other_opex_usd_per_gpu_hour": 0.3, )")
            + entry + QStringLiteral("}}}");
        auto model = parseTco(text.toStdString(), "t.json");
        QVERIFY2(model, model ? "" : model.error().c_str());
        PlanRequest req = request(craftedScope(), 1e6, DemandUnit::TokPerS, 40);
        req.tco = *model;
        auto plan = computePlan(loadPlanFrontiers(*m_store, req.scope), req);
        QVERIFY(plan);
        const HardwarePlan* h = planOf(*plan, "b300");
        const double capital = 60000.0 / (5 * 8760), energy = energyKw * 0.1, other = 0.3;
        QVERIFY(h->tco);
        QCOMPARE(QString::fromStdString(std::string(powerBasisName(h->tco->basis))), basis);
        QVERIFY(near(h->tco->capital, capital));
        QVERIFY(near(h->tco->energy, energy));
        QVERIFY(near(h->tco->other, other));
        QVERIFY(near(*h->usdPerGpuHour, capital + energy + other));
        QCOMPARE(h->priceSource, std::string("tco"));
        const Expected e = expectedSizing(1e6, 0.25, 8000, 8, 8);
        QVERIFY(near(*h->costPerHour, e.gpus * (capital + energy + other)));
        QVERIFY(near(*h->costPerMTok, (capital + energy + other) / (8000 * 3600.0) * 1e6));
        // hardware without an entry has no price, and says why
        const HardwarePlan* m = planOf(*plan, "mi325x");
        QVERIFY(!m->usdPerGpuHour && !m->costPerMonth);
        QVERIFY(!m->notes.empty());
    }

    // The published DeepSeek V4.1 Flash readings: no GPU count is recorded, so GPUs are whole GPUs, not replicas.
    void bundledDataset()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importBundledDataset(*store));
        PlanRequest req;
        req.scope.model = "DeepSeek-V4.1-Flash";
        req.scope.workload = "agentic coding";
        req.demand = 1e7;
        req.target = 50;
        const PlanFrontiers data = loadPlanFrontiers(*store, req.scope);
        auto plan = computePlan(data, req);
        QVERIFY(plan);
        const HardwarePlan* b = planOf(*plan, "b300");
        const HardwarePlan* m = planOf(*plan, "mi325x");
        QCOMPARE(*b->tputPerGpu, 328417.0);
        QCOMPARE(*m->tputPerGpu, 17745.0);
        QCOMPARE(double(b->gpus), std::ceil(1e7 * 1.25 / 328417));
        QCOMPARE(double(b->nodes), std::ceil(std::ceil(1e7 * 1.25 / 328417) / 8));
        QCOMPARE(b->replicas, 0LL);
        QCOMPARE(double(m->gpus), std::ceil(1e7 * 1.25 / 17745));
        // the published list prices at 50 tok/s/user: $0.002 (B300) and $0.017 (MI325X) per million tokens
        QCOMPARE(QString::number(*b->costPerMTok, 'f', 3), QStringLiteral("0.002"));
        QCOMPARE(QString::number(*m->costPerMTok, 'f', 3), QStringLiteral("0.017"));
        QVERIFY(b->cheapest && !m->cheapest);
        // 30 tok/s/user is below B300's measured range: its published points are all faster, and a published point
        // (no concurrency) is a configuration of its own, read only where it was measured: the best of them is sized
        req.target = 30;
        plan = computePlan(data, req);
        const HardwarePlan* faster = planOf(*plan, "b300");
        QCOMPARE(faster->status, PlanStatus::FasterThanTarget);
        QVERIFY(faster->deliveredInteractivity > 30 && *faster->tputPerGpu >= 328417.0);
        double best = 0;
        for (const ConfigCurve& c : data.totalConfigs)
            for (const ConfigKnot& k : c.knots)
                if (c.group.hardware == "b300" && k.x >= 30)
                    best = std::max(best, k.y);
        QCOMPARE(*faster->tputPerGpu, best);
        QVERIFY(faster->costPerMonth);
        req.exactTarget = true; // as before the floor
        plan = computePlan(data, req);
        QCOMPARE(planOf(*plan, "b300")->status, PlanStatus::BelowRange);
        QVERIFY(!planOf(*plan, "b300")->costPerMonth);
        QVERIFY(planOf(*plan, "mi325x")->cheapest);
        req.exactTarget = false;
        // requests need fixed lengths, which an agentic workload has not
        req.unit = DemandUnit::ReqPerS;
        plan = computePlan(data, req);
        QVERIFY(!plan);
        QVERIFY(QString::fromStdString(plan.error()).contains(QStringLiteral("fixed input and output lengths")));
    }

    // InferenceX's DeepSeek-R1 API rows, planned at 40 tok/s/user, against a reference worked here from the JSON: each
    // line (a row's configuration without concurrency) from its newest run, its points' frontier (tested in
    // tst_frontier) read at the target between two of its own points, or its measured points faster than the target;
    // per hardware the most tok/s/GPU. Where the frontier's reading crosses configurations, the two differ and the
    // plan says by how much; one hardware is interpolated within a configuration, with its two concurrencies.
    void realApiFixture()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString path = fixture(QStringLiteral("inferencex-app-api/benchmarks.json"));
        QVERIFY(importPath(*store, path.toStdString(), {})[0].result.ok());
        PlanRequest req = request(craftedScope(), 1e6, DemandUnit::TokPerS, 40);
        req.scope.model = "dsr1";
        auto plan = computePlan(loadPlanFrontiers(*store, req.scope), req);
        QVERIFY(plan);
        // the reference
        struct Line {
            QString hardware, newest; // newest: date, then run id (zero-padded)
            std::vector<QJsonObject> rows;
        };
        std::map<QByteArray, Line> lines;
        for (const QJsonValue v : QJsonDocument::fromJson(readAll(path)).array()) {
            const QJsonObject o = v.toObject();
            if (o[QStringLiteral("model")] != QStringLiteral("dsr1") || o[QStringLiteral("isl")].toInt() != 1024
                || o[QStringLiteral("osl")].toInt() != 1024)
                continue;
            QJsonObject key = o;
            for (const QString& k : { QStringLiteral("conc"), QStringLiteral("date"), QStringLiteral("run_url"),
                     QStringLiteral("metrics"), QStringLiteral("image") })
                key.remove(k);
            const QString run
                = o[QStringLiteral("run_url")].toString().section(QStringLiteral("/runs/"), 1).section(u'/', 0, 0);
            const QString version = o[QStringLiteral("date")].toString() + run.rightJustified(20, u'0');
            Line& l = lines[QJsonDocument(key).toJson(QJsonDocument::Compact)];
            l.hardware = o[QStringLiteral("hardware")].toString();
            if (version > l.newest) {
                l.newest = version;
                l.rows.clear();
            }
            if (version == l.newest)
                l.rows.push_back(o);
        }
        struct Best {
            double y = 0, x = 0;
            bool interpolated = false;
            int gpus = 0, slowConc = 0, fastConc = 0;
        };
        std::map<QString, Best> best;
        std::set<QString> reaching; // hardware some line of which delivers exactly the target
        for (const auto& [key, l] : lines) {
            std::vector<Point> points;
            std::map<long long, const QJsonObject*> byIndex;
            for (std::size_t i = 0; i < l.rows.size(); ++i) {
                const QJsonObject m = l.rows[i][QStringLiteral("metrics")].toObject();
                points.push_back(Point { 1.0 / m[QStringLiteral("median_tpot")].toDouble(),
                    m[QStringLiteral("tput_per_gpu")].toDouble(), static_cast<long long>(i), false });
                byIndex[static_cast<long long>(i)] = &l.rows[i];
            }
            const std::vector<Point> knots = upperLeftFrontier(points);
            const MonotoneCurve curve(knots);
            const QJsonObject& first = *byIndex[knots.front().runId];
            const int gpus = first[QStringLiteral("disagg")].toBool()
                ? first[QStringLiteral("num_prefill_gpu")].toInt() + first[QStringLiteral("num_decode_gpu")].toInt()
                : first[QStringLiteral("decode_tp")].toInt();
            Best& b = best[l.hardware];
            for (std::size_t i = 0; i < knots.size(); ++i) {
                if (knots[i].x == 40 || (i + 1 < knots.size() && knots[i].x < 40 && 40 < knots[i + 1].x))
                    reaching.insert(l.hardware);
                if (knots[i].x >= 40 && knots[i].y > b.y)
                    b = { knots[i].y, knots[i].x, false, gpus, 0, 0 };
                if (i + 1 < knots.size() && knots[i].x < 40 && 40 < knots[i + 1].x && *curve.at(40) > b.y)
                    b = { *curve.at(40), 40, true, gpus, (*byIndex[knots[i].runId])[QStringLiteral("conc")].toInt(),
                        (*byIndex[knots[i + 1].runId])[QStringLiteral("conc")].toInt() };
            }
        }
        QCOMPARE(plan->hardware.size(), best.size());
        int interpolated = 0, faster = 0, crossing = 0;
        for (const HardwarePlan& h : plan->hardware) {
            const Best& b = best.at(QString::fromStdString(h.hardware));
            QVERIFY2(h.read(), h.hardware.c_str());
            QVERIFY2(near(*h.tputPerGpu, b.y), qPrintable(QString::fromStdString(h.hardware)));
            QCOMPARE(h.deliveredInteractivity, b.x);
            // the target is a floor: sized faster than it where that delivers more, "faster" where nothing is at it
            QCOMPARE(h.status,
                reaching.count(QString::fromStdString(h.hardware)) ? PlanStatus::Ok : PlanStatus::FasterThanTarget);
            QCOMPARE(h.reading == PlanReading::Interpolated, b.interpolated);
            QCOMPARE(h.replicaGpus, b.gpus);
            const Published pub = kPublished.at(QString::fromStdString(h.hardware));
            const Expected x = expectedSizing(1e6, 0.25, b.y, b.gpus, pub.perNode);
            QCOMPARE(double(h.gpus), x.gpus);
            QCOMPARE(double(h.nodes), x.nodes);
            QVERIFY(near(*h.powerKw, x.gpus * pub.kw));
            QVERIFY(near(*h.costPerMonth, x.gpus * pub.usd * 730));
            if (b.interpolated) {
                ++interpolated;
                QCOMPARE(h.lower->concurrency, b.slowConc);
                QCOMPARE(h.sizing->concurrency, b.fastConc);
                QVERIFY(
                    QString::fromStdString(deployAsText(h))
                        .contains(QStringLiteral("between the measured %1 and %2").arg(b.fastConc).arg(b.slowConc)));
            }
            faster += h.status == PlanStatus::FasterThanTarget;
            if (h.frontierRatio && std::abs(*h.frontierRatio - 1) > 0.01) {
                ++crossing;
                QVERIFY(near(*h.frontierRatio, *h.frontierTputPerGpu / *h.tputPerGpu));
            }
        }
        QVERIFY(interpolated >= 1 && faster >= 1 && crossing >= 1);
        QCOMPARE(std::count_if(plan->hardware.begin(), plan->hardware.end(), [](auto& h) { return h.cheapest; }), 1);
    }

    // AMD's disaggregated vLLM runs of gpt-oss-120b, 8 prefill + 8 decode GPUs: replicas of 16, two nodes each.
    void realDisaggregated()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        ImportOptions o;
        o.hardware = "mi355x";
        o.prefillGpus = 8;
        o.decodeGpus = 8;
        o.engine = "vllm";
        o.precision = "fp4";
        o.model = "gpt-oss-120b";
        for (const auto& out :
            importPath(*store, fixture(QStringLiteral("inferencex-raw-bench-serving")).toStdString(), o))
            QVERIFY2(out.result.ok(), out.result.ok() ? "" : out.result.error().c_str());
        Scope scope = craftedScope(); // its runs are 1k/1k
        scope.model = "gpt-oss-120b";
        const PlanFrontiers data = loadPlanFrontiers(*store, scope);
        QVERIFY(!data.total.empty());
        const GroupFrontier& g = data.total.front();
        const Point& knot = g.points[g.points.size() / 2]; // a target on a measured knot
        PlanRequest req = request(data.scope, 1e6, DemandUnit::TokPerS, knot.x);
        auto plan = computePlan(data, req);
        QVERIFY(plan);
        const HardwarePlan& h = plan->hardware.front();
        const Expected x = expectedSizing(1e6, 0.25, knot.y, 16, 8);
        QCOMPARE(h.replicaGpus, 16);
        QCOMPARE(double(h.gpus), x.gpus);
        QCOMPARE(double(h.nodes), x.replicas * 2);
        QVERIFY(near(*h.powerKw, x.gpus * 2.09));
    }

    // The cost of speed is the plan at each target; one hardware is the cheapest at each.
    void sweepAndCheapest()
    {
        PlanRequest req = request(craftedScope(), 1000, DemandUnit::Users, 40);
        const PlanFrontiers data = loadPlanFrontiers(*m_store, req.scope);
        auto sweep = costOfSpeed(data, req, { 20, 40, 50 });
        QVERIFY(sweep);
        QCOMPARE(sweep->size(), std::size_t(3));
        for (const Plan& p : *sweep) {
            req.target = p.target;
            auto single = computePlan(data, req);
            QCOMPARE(p.demandTokensPerSecond, 1000 * p.target); // users x target
            const HardwarePlan* cheapest = nullptr;
            for (std::size_t i = 0; i < p.hardware.size(); ++i) {
                QCOMPARE(p.hardware[i].gpus, single->hardware[i].gpus);
                const auto& m = p.hardware[i].costPerMonth;
                if (m && (!cheapest || *m < *cheapest->costPerMonth))
                    cheapest = &p.hardware[i];
            }
            QCOMPARE(p.cheapest(), cheapest);
        }
    }

    void refusals()
    {
        const PlanFrontiers data = loadPlanFrontiers(*m_store, craftedScope());
        PlanRequest req = request(craftedScope(), 0, DemandUnit::TokPerS, 40);
        QVERIFY(QString::fromStdString(computePlan(data, req).error()).contains(QStringLiteral("demand")));
        req.demand = 1;
        req.headroom = -0.1;
        QVERIFY(QString::fromStdString(computePlan(data, req).error()).contains(QStringLiteral("headroom")));
        req.headroom = 0;
        req.price.tierKey = "nope";
        QVERIFY(
            QString::fromStdString(computePlan(data, req).error()).contains(QStringLiteral("unknown pricing tier")));
        Scope none = craftedScope();
        none.model = "absent";
        QVERIFY(loadPlanFrontiers(*m_store, none).empty());
        QCOMPARE(demandUnitName(*parseDemandUnit("output-tok/s")), std::string_view("output-tok/s"));
        QVERIFY(!parseDemandUnit("tokens"));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestPlan)
#include "tst_plan.moc"
