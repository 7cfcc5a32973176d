// The plan's other questions (docs/architecture.md sections 12.8 to 12.10): a budget in MW or $/month, a cost cap, a
// workload mix. Each is checked against the demand plan it inverts or sums, and on the crafted runs against numbers
// worked by hand from the published power and price figures.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

#include "core/analysis/plan.h"
#include "core/analysis/planbudget.h"
#include "core/analysis/plancap.h"
#include "core/analysis/planmix.h"
#include "core/output/planbudgetreports.h"
#include "core/output/planmixreports.h"
#include "tests/support/clichild.h"
#include "tests/support/plancrafted.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::testsupport::crafted;

namespace {

const BudgetHardware* budgetOf(const BudgetPlan& p, const std::string& hw)
{
    for (const BudgetHardware& b : p.hardware)
        if (b.plan.hardware == hw)
            return &b;
    return nullptr;
}

const CapHardware* capOf(const CapPlan& p, const std::string& hw)
{
    for (const CapHardware& c : p.hardware)
        if (c.hardware == hw)
            return &c;
    return nullptr;
}

Scope apiScope(int isl, int osl)
{
    Scope s;
    s.model = "dsr1";
    s.isl = isl;
    s.osl = osl;
    s.precisions = { "fp8" };
    return s;
}

} // namespace

class TestPlanModes : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir, m_apiDir;
    std::unique_ptr<RunStore> m_store, m_api;

private slots:
    void initTestCase()
    {
        std::string error;
        m_store = craftedStore(m_dir, error);
        QVERIFY2(m_store, error.c_str());
        m_api = openTempStore(m_apiDir);
        QVERIFY(m_api);
        QVERIFY(importPath(*m_api, fixture(kApi).toStdString(), {})[0].result.ok());
    }

    // B300 at 40 tok/s/user is TP8 at concurrency 16: 8,000 tok/s/GPU, replicas of 8, 1.90 kW all-in and $2.26 an
    // hour per GPU. 1 MW buys floor(1,000 / (8 x 1.90)) = 65 replicas, 520 GPUs, which serve 520 x 8,000 / 1.25 =
    // 3,328,000 tok/s with the headroom spare: half of it output (1k/1k), 41,600 users at 40, 1,625 req/s.
    // $1,000,000 a month buys floor(1e6 / (8 x 2.26 x 730)) = 75 replicas.
    void budgetByHand()
    {
        const PlanRequest req = request(craftedScope(), 0, DemandUnit::TokPerS, 40);
        const PlanFrontiers data = loadPlanFrontiers(*m_store, req.scope);
        auto mw = computeBudgetPlan(data, req, BudgetKind::Megawatts, 1.0);
        QVERIFY2(mw, mw ? "" : mw.error().c_str());
        const BudgetHardware* b = budgetOf(*mw, "b300");
        QVERIFY(b && b->fits);
        QCOMPARE(b->plan.replicas, 65LL);
        QCOMPARE(b->plan.gpus, 520LL);
        QCOMPARE(b->plan.nodes, 65LL);
        QVERIFY(near(b->servedTokPerS, 3'328'000));
        QVERIFY(near(*b->outputTokPerS, 1'664'000));
        QVERIFY(near(*b->users, 41'600));
        QVERIFY(near(*b->requestsPerS, 1'625));
        QVERIFY(near(*b->plan.powerMw, 520 * 1.90 / 1000));
        QVERIFY(near(*b->plan.costPerMonth, 520 * 2.26 * 730));
        auto usd = computeBudgetPlan(data, req, BudgetKind::UsdPerMonth, 1e6);
        QVERIFY(usd);
        QCOMPARE(budgetOf(*usd, "b300")->plan.replicas, 75LL);
        QVERIFY(*budgetOf(*usd, "b300")->plan.costPerMonth <= 1e6);
        // a budget below one replica buys nothing, and says what one takes
        auto small = computeBudgetPlan(data, req, BudgetKind::Megawatts, 0.01);
        QVERIFY(small);
        QVERIFY(!budgetOf(*small, "b300")->fits);
        QCOMPARE(budgetOf(*small, "b300")->plan.gpus, 0LL);
        QVERIFY2(budgetOf(*small, "b300")->why.find("one replica (8 GPUs) takes 0.0152 MW") != std::string::npos,
            budgetOf(*small, "b300")->why.c_str());
        for (double bad : { 0.0, -1.0, double(NAN), 2e6 })
            QVERIFY(!computeBudgetPlan(data, req, BudgetKind::Megawatts, bad));
        // a price near $0 would buy more GPUs than can be counted: said, not sized
        PlanRequest cheap = req;
        cheap.price.customUsdPerGpuHour = 1e-12;
        auto huge = computeBudgetPlan(data, cheap, BudgetKind::UsdPerMonth, 1e13);
        QVERIFY(huge);
        QVERIFY(!budgetOf(*huge, "b300")->fits);
        QCOMPARE(budgetOf(*huge, "b300")->plan.gpus, 0LL);
        QVERIFY2(budgetOf(*huge, "b300")->why.find("more than 1e12 GPUs") != std::string::npos,
            budgetOf(*huge, "b300")->why.c_str());
    }

    // On the real rows, per hardware and both budget kinds: the demand plan for what the budget serves takes exactly
    // the budget's GPUs, which fit the budget, and one replica more would not.
    void budgetInvertsTheDemandPlan_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("amount");
        QTest::addColumn<double>("target");
        QTest::newRow("10 MW at 40") << int(BudgetKind::Megawatts) << 10.0 << 40.0;
        QTest::newRow("$5M/month at 75") << int(BudgetKind::UsdPerMonth) << 5e6 << 75.0;
    }
    void budgetInvertsTheDemandPlan()
    {
        QFETCH(int, kind);
        QFETCH(double, amount);
        QFETCH(double, target);
        PlanRequest req = request(apiScope(1024, 1024), 0, DemandUnit::TokPerS, target);
        const PlanFrontiers data = loadPlanFrontiers(*m_api, req.scope);
        auto budget = computeBudgetPlan(data, req, BudgetKind(kind), amount);
        QVERIFY2(budget, budget ? "" : budget.error().c_str());
        int fitting = 0;
        for (const BudgetHardware& b : budget->hardware) {
            if (!b.fits)
                continue;
            ++fitting;
            const double used = kind == int(BudgetKind::Megawatts) ? *b.plan.powerMw : *b.plan.costPerMonth;
            QVERIFY(used <= amount * (1 + 1e-12));
            QVERIFY(used + b.replicaCost > amount);
            PlanRequest demand = req;
            demand.demand = b.servedTokPerS;
            demand.scope.hardware = { b.plan.hardware };
            auto plan = computePlan(data, demand);
            QVERIFY(plan);
            QCOMPARE(plan->hardware.front().gpus, b.plan.gpus);
            QCOMPARE(plan->hardware.front().deliveredInteractivity, b.plan.deliveredInteractivity);
        }
        QVERIFY(fitting >= 5);
        int most = 0;
        for (const BudgetHardware& b : budget->hardware)
            most += b.most;
        QCOMPARE(most, 1);
    }

    // B300 at $2.26/GPU/hr: a cap of $2.26e6 / (3,600 x 10,000) per million tokens needs 10,000 tok/s/GPU, which TP8
    // reaches between its 20 (12,000) and 40 (8,000) tok/s/user. Two knots give the curve (docs/architecture.md
    // section 10) the end slopes 3s/2 and 3s/4 (s = -200 per tok/s/user): over u = (x - 20) / 20 it is
    // 12,000 - 6,000u + 3,000u^2 - 1,000u^3, which is 10,000 where u^3 - 3u^2 + 6u - 2 = 0. A cap that TP4's 3,000
    // tok/s/GPU at 80 meets reaches 80, its last knot.
    void costCapByHand()
    {
        const PlanRequest req = request(craftedScope(), 1e6, DemandUnit::TokPerS, 40);
        const PlanFrontiers data = loadPlanFrontiers(*m_store, req.scope);
        auto cap = computeCostCap(data, req, 2.26e6 / (3600.0 * 10'000));
        QVERIFY2(cap, cap ? "" : cap.error().c_str());
        const CapHardware* b = capOf(*cap, "b300");
        QVERIFY(b && b->interactivity);
        double lo = 0, hi = 1; // the cubic's root in (0, 1), by bisection here
        for (int i = 0; i < 100; ++i)
            ((lo + hi) / 2 * ((lo + hi) / 2 * ((lo + hi) / 2 - 3) + 6) - 2 < 0 ? lo : hi) = (lo + hi) / 2;
        QVERIFY2(near(*b->interactivity, 20 + 20 * lo, 1e-9), qPrintable(QString::number(*b->interactivity, 'g', 12)));
        QVERIFY(std::abs(*b->interactivity - 28.0786) < 1e-4);
        QCOMPARE(b->plan.reading, PlanReading::Interpolated);
        QVERIFY(near(*b->plan.tputPerGpu, 10'000, 1e-9));
        QVERIFY(near(*b->plan.costPerMTok, 2.26e6 / (3600.0 * 10'000), 1e-9));
        auto wide = computeCostCap(data, req, 2.26e6 / (3600.0 * 3'000));
        QVERIFY(wide);
        QCOMPARE(*capOf(*wide, "b300")->interactivity, 80.0);
        // too tight for any configuration: says the least it costs
        auto tight = computeCostCap(data, req, 0.01);
        QVERIFY(tight && !capOf(*tight, "b300")->interactivity);
        QVERIFY2(capOf(*tight, "b300")->why.find("the least is $0.052 per million tokens") != std::string::npos,
            capOf(*tight, "b300")->why.c_str());
        QVERIFY(!computeCostCap(data, req, 0));
        QVERIFY(!computeCostCap(data, req, -1));
        // a demand in users is sized at each hardware's own interactivity: users x that
        const PlanRequest users = request(craftedScope(), 1000, DemandUnit::Users, 40);
        auto byUsers = computeCostCap(data, users, 2.26e6 / (3600.0 * 3'000));
        QVERIFY(byUsers);
        // (on output tokens: TP8's 4,000 at 40 meets the 3,000 the cap needs, TP4's 1,500 at 80 does not)
        QCOMPARE(*capOf(*byUsers, "b300")->interactivity, 40.0);
        QCOMPARE(capOf(*byUsers, "b300")->demandTokensPerSecond, 1000.0 * 40);
    }

    // On the real rows: the cap's interactivity is where the cost-of-speed curve crosses the cap, per hardware: the
    // plan there is within it, a hair faster it is not (or has no reading).
    void costCapReadsTheCostOfSpeedCurve_data()
    {
        QTest::addColumn<double>("cap");
        QTest::newRow("$0.50") << 0.5;
        QTest::newRow("$0.25") << 0.25;
        QTest::newRow("$1.00") << 1.0;
    }
    void costCapReadsTheCostOfSpeedCurve()
    {
        QFETCH(double, cap);
        const PlanRequest req = request(apiScope(1024, 1024), 2e6, DemandUnit::TokPerS, 40);
        const PlanFrontiers data = loadPlanFrontiers(*m_api, req.scope);
        auto plan = computeCostCap(data, req, cap);
        QVERIFY(plan);
        int within = 0;
        for (const CapHardware& c : plan->hardware) {
            if (!c.interactivity)
                continue;
            ++within;
            const double t = *c.interactivity;
            PlanRequest one = req;
            one.scope.hardware = { c.hardware };
            auto curve = costOfSpeed(data, one, { t * (1 - 1e-6), t, t * (1 + 1e-6) });
            QVERIFY(curve);
            for (int i : { 0, 1 }) {
                const HardwarePlan& h = (*curve)[i].hardware.front();
                QVERIFY2(h.costPerMTok && *h.costPerMTok <= cap * (1 + 1e-9),
                    qPrintable(QString::fromStdString(c.hardware)));
            }
            const HardwarePlan& above = (*curve)[2].hardware.front();
            QVERIFY2(!above.costPerMTok || *above.costPerMTok > cap, qPrintable(QString::fromStdString(c.hardware)));
        }
        QVERIFY(within >= 3);
    }

    // A two-part mix on the real rows is the two plans of its parts, each at its share, summed per hardware: the
    // cheapest for the whole mix is the least of the sums, and the mix of hardware takes each part's cheapest.
    void twoPartMix()
    {
        PlanRequest req = request(apiScope(0, 0), 2e6, DemandUnit::TokPerS, 40);
        auto parts = parseMixSpec("1024/1024:0.7,8192/1024:0.3@60", req.scope);
        QVERIFY2(parts, parts ? "" : parts.error().c_str());
        QCOMPARE(parts->size(), std::size_t(2));
        QCOMPARE(*(*parts)[1].target, 60.0);
        QCOMPARE(mixSpecText(*parts, req.scope), std::string("1024/1024:0.7,8192/1024:0.3@60"));
        auto spaced = parseMixSpec(" 1024/1024 : 0.7 , 8192/1024:0.3@60 ", req.scope); // spaces around fields
        QVERIFY2(spaced, spaced ? "" : spaced.error().c_str());
        QCOMPARE(mixSpecText(*spaced, req.scope), std::string("1024/1024:0.7,8192/1024:0.3@60"));
        const PlanFrontiers a = loadPlanFrontiers(*m_api, (*parts)[0].scope);
        const PlanFrontiers b = loadPlanFrontiers(*m_api, (*parts)[1].scope);
        auto mix = computeMixPlan({ &a, &b }, req, *parts);
        QVERIFY2(mix, mix ? "" : mix.error().c_str());
        // the parts alone
        PlanRequest ra = request((*parts)[0].scope, 2e6 * 0.7, DemandUnit::TokPerS, 40);
        PlanRequest rb = request((*parts)[1].scope, 2e6 * 0.3, DemandUnit::TokPerS, 60);
        auto pa = computePlan(a, ra), pb = computePlan(b, rb);
        QVERIFY(pa && pb);
        double cheapestCost = INFINITY;
        std::string cheapest;
        for (const MixHardware& m : mix->hardware) {
            const HardwarePlan* ha = planOf(*pa, m.hardware);
            const HardwarePlan* hb = planOf(*pb, m.hardware);
            const bool complete = ha && hb && ha->sized() && hb->sized();
            QCOMPARE(m.complete, complete);
            if (!complete)
                continue;
            QCOMPARE(m.gpus, ha->gpus + hb->gpus);
            QVERIFY(near(*m.costPerMonth, *ha->costPerMonth + *hb->costPerMonth));
            if (*m.costPerMonth < cheapestCost) {
                cheapestCost = *m.costPerMonth;
                cheapest = m.hardware;
            }
        }
        for (const MixHardware& m : mix->hardware)
            QCOMPARE(m.cheapest, m.hardware == cheapest);
        QCOMPARE(mix->cheapestPerPart[0], pa->cheapest()->hardware);
        QCOMPARE(mix->cheapestPerPart[1], pb->cheapest()->hardware);
        QVERIFY(near(*mix->mixedCostPerMonth, *pa->cheapest()->costPerMonth + *pb->cheapest()->costPerMonth));
        QVERIFY(*mix->mixedCostPerMonth <= cheapestCost);
        QCOMPARE(mix->mixedDiffers, pa->cheapest()->hardware != pb->cheapest()->hardware);
        // every format names the parts and marks sparse readings
        const std::string table = mixTable(*mix), jsonText = mixJson(*mix), csv = mixCsv(*mix);
        QVERIFY(table.find("GPUs 8192/1024") != std::string::npos);
        bool anySparse = false;
        for (const Plan& p : mix->plans)
            for (const HardwarePlan& h : p.hardware)
                anySparse = anySparse || (h.sized() && h.sparse);
        QVERIFY(anySparse);
        QVERIFY(table.find("(sparse)") != std::string::npos);
        QVERIFY(jsonText.find("\"sparse\": true") != std::string::npos);
        QVERIFY(csv.find(",sparse,") != std::string::npos || csv.find(",true,") != std::string::npos);
    }

    void mixRefusals_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("shares") << "1024/1024:0.7,8192/1024:0.2"
                                << "shares add up to 0.9, not 1";
        QTest::newRow("no share") << "1024/1024"
                                  << "must be ISL/OSL:SHARE";
        QTest::newRow("bad length") << "1024/x:1"
                                    << "whole numbers of tokens";
        QTest::newRow("zero length") << "0/1024:1"
                                     << "whole numbers of tokens";
        QTest::newRow("share above 1") << "1024/1024:1.5"
                                       << "at most 1";
        QTest::newRow("negative share") << "1024/1024:-1,8192/1024:2"
                                        << "above 0 and at most 1";
        QTest::newRow("target") << "1024/1024:1@abc"
                                << "the target after @";
        QTest::newRow("twice") << "1024/1024:0.5,1024/1024:0.5"
                               << "the same workload";
        QTest::newRow("empty part") << "1024/1024:1,"
                                    << "must be ISL/OSL:SHARE";
        QString many;
        for (int i = 1; i <= 17; ++i)
            many += QStringLiteral("%1%2/1024:0.05").arg(i == 1 ? QStringLiteral("") : QStringLiteral(",")).arg(i);
        QTest::newRow("17 parts") << many << "at most 16";
        QTest::newRow("length too long") << "1024/20000000:1"
                                         << "at most 10,000,000";
    }
    void mixRefusals()
    {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        auto parts = parseMixSpec(spec.toStdString(), apiScope(0, 0));
        QVERIFY(!parts);
        QVERIFY2(parts.error().find(message.toStdString()) != std::string::npos, parts.error().c_str());
    }

    void mixFile()
    {
        const Scope base = apiScope(0, 0);
        auto good = parseMixFile(R"({"parts": [{"label": "chat", "isl": 1024, "osl": 1024, "share": 0.6, "target": 50},
            {"model": "gptoss", "isl": 8192, "osl": 1024, "share": 0.4}]})",
            "mix.json", base);
        QVERIFY2(good, good ? "" : good.error().c_str());
        QCOMPARE((*good)[0].label, std::string("chat"));
        QCOMPARE(*(*good)[0].target, 50.0);
        QCOMPARE((*good)[1].scope.model, std::string("gptoss"));
        QVERIFY(!(*good)[1].target);
        QCOMPARE(mixSpecText(*good, base), std::string()); // another model: only a file says it
        const std::pair<const char*, const char*> bad[] {
            { R"({"parts": [{"isl": 1024, "osl": 1024, "share": 1, "tp": 8}]})", "mix.json: parts[0].tp: not a field" },
            { R"({"parts": [{"osl": 1024, "share": 1}]})", "mix.json: parts[0].isl: must be a whole number" },
            { R"({"parts": [{"isl": 1024, "osl": 1024, "share": "1"}]})", "parts[0].share: must be a number" },
            { R"({"parts": [{"isl": 1024, "osl": 1024, "share": 1, "target": -4}]})", "parts[0].target" },
            { R"({"parts": {}})", "parts: must be an array" },
            { R"({"parts": [], "extra": 1})", "extra: not a field of a mix file" },
            { R"({"parts": []})", "at least one part" },
            { R"([[[[[[[[[[1]]]]]]]]]])", "mix.json" },
        };
        for (const auto& [text, message] : bad) {
            auto parts = parseMixFile(text, "mix.json", base);
            QVERIFY2(!parts, text);
            QVERIFY2(parts.error().find(message) != std::string::npos, parts.error().c_str());
        }
    }

    // A reading across a gap wider than 2x says so in every format: the ladder (B300's frontier at 40 reads across
    // configurations measured far apart), the summary, and the plan, budget and cap, where MI355X's TP8 is read
    // between its concurrencies 4 and 128 (87.5 and 36.3 tok/s/user).
    void sparseSaidInEveryFormat()
    {
        const QString db = m_apiDir.filePath(QStringLiteral("store.sqlite"));
        const QStringList scope { QStringLiteral("--db"), db, QStringLiteral("--model"), QStringLiteral("dsr1"),
            QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024"),
            QStringLiteral("--precision"), QStringLiteral("fp8") };
        Run ladder = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("40"),
                             QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--reading"),
                             QStringLiteral("frontier") }
            + scope);
        QCOMPARE(ladder.code, 0);
        const QList<QByteArray> rows = ladder.out.split('\n');
        const qsizetype sparse = rows[0].split(',').indexOf("sparse"); // of the reading chosen: the frontier's
        QVERIFY(sparse > 0);
        bool b300 = false;
        for (const QByteArray& row : rows)
            if (row.startsWith("b300,"))
                b300 = row.split(',')[sparse] == "true";
        QVERIFY2(b300, ladder.out.constData());
        Run table = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("40"),
                            QStringLiteral("--format"), QStringLiteral("table") }
            + scope);
        QVERIFY2(table.out.contains("1,944 (Dynamo TRT · FP8; sparse)"), table.out.constData());
        Run summary
            = cli(QStringList { QStringLiteral("summary"), QStringLiteral("--target"), QStringLiteral("40") } + scope);
        QCOMPARE(summary.code, 0);
        QVERIFY(summary.out.contains("1,944 (Dynamo TRT · FP8) (read across a gap in the measurements)"));
        const QStringList plan = QStringList { QStringLiteral("plan"), QStringLiteral("--target"), QStringLiteral("40"),
            QStringLiteral("--unit"), QStringLiteral("tok/s") }
            + scope;
        Run planTable = cli(plan
            + QStringList { QStringLiteral("--demand"), QStringLiteral("2e6"), QStringLiteral("--format"),
                QStringLiteral("table") });
        QVERIFY2(planTable.out.contains("sparse 4-128"), planTable.out.constData());
        QVERIFY(planTable.out.contains("sparse: interpolated between concurrency 4 and 128"));
        Run budget = cli(plan
            + QStringList { QStringLiteral("--budget-mw"), QStringLiteral("10"), QStringLiteral("--format"),
                QStringLiteral("csv") });
        QVERIFY2(budget.out.contains("\nmi355x,mw,10,40,total,ok,interpolated,true,"), budget.out.constData());
        Run cap = cli(plan
            + QStringList { QStringLiteral("--demand"), QStringLiteral("2e6"), QStringLiteral("--max-cost-per-mtok"),
                QStringLiteral("0.5"), QStringLiteral("--format"), QStringLiteral("json") });
        const QJsonObject mi = QJsonDocument::fromJson(cap.out).object()[QStringLiteral("mi355x")].toObject();
        QVERIFY(mi[QStringLiteral("sparse")].toBool());
        QCOMPARE(mi[QStringLiteral("reading")].toString(), QStringLiteral("interpolated"));
    }

    // The command line: each mode prints, refuses what does not go together, and names what is wrong.
    void commandLine()
    {
        const QString db = m_apiDir.filePath(QStringLiteral("store.sqlite"));
        const QStringList scope { QStringLiteral("plan"), QStringLiteral("--db"), db, QStringLiteral("--model"),
            QStringLiteral("dsr1"), QStringLiteral("--precision"), QStringLiteral("fp8"), QStringLiteral("--target"),
            QStringLiteral("40"), QStringLiteral("--unit"), QStringLiteral("tok/s") };
        Run budget = cli(scope
            + QStringList { QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"),
                QStringLiteral("1024"), QStringLiteral("--budget-mw"), QStringLiteral("10"), QStringLiteral("--format"),
                QStringLiteral("table") });
        QCOMPARE(budget.code, 0);
        QVERIFY2(budget.out.contains("Budget 10.0 MW at 40 tok/s/user"), budget.out.constData());
        QVERIFY(budget.out.contains("* serves the most"));
        Run cap = cli(scope
            + QStringList { QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"),
                QStringLiteral("1024"), QStringLiteral("--demand"), QStringLiteral("2e6"),
                QStringLiteral("--max-cost-per-mtok"), QStringLiteral("0.5"), QStringLiteral("--format"),
                QStringLiteral("csv") });
        QCOMPARE(cap.code, 0);
        QVERIFY(cap.out.startsWith("hardware,max_cost_per_mtok,interactivity"));
        Run mix = cli(scope
            + QStringList { QStringLiteral("--demand"), QStringLiteral("2e6"), QStringLiteral("--mix"),
                QStringLiteral("1024/1024:0.7,8192/1024:0.3"), QStringLiteral("--format"), QStringLiteral("table") });
        QCOMPARE(mix.code, 0);
        QVERIFY2(mix.out.contains("* cheapest for the whole mix"), mix.out.constData());
        const std::pair<QStringList, const char*> refused[] {
            { { QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024"),
                  QStringLiteral("--budget-mw"), QStringLiteral("10"), QStringLiteral("--demand"),
                  QStringLiteral("5") },
                "a budget replaces" },
            { { QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024"),
                  QStringLiteral("--budget-mw"), QStringLiteral("10"), QStringLiteral("--budget-usd-month"),
                  QStringLiteral("5") },
                "give one of" },
            { { QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024"),
                  QStringLiteral("--budget-mw"), QStringLiteral("-3") },
                "--budget-mw must be a number above zero" },
            { { QStringLiteral("--demand"), QStringLiteral("5"), QStringLiteral("--mix"), QStringLiteral("1024/1024:1"),
                  QStringLiteral("--isl"), QStringLiteral("1024") },
                "leave out --isl" },
            { { QStringLiteral("--demand"), QStringLiteral("5"), QStringLiteral("--mix"),
                  QStringLiteral("1024/1024:0.5") },
                "shares add up to 0.5" },
            { { QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024"),
                  QStringLiteral("--demand"), QStringLiteral("5"), QStringLiteral("--max-cost-per-mtok"),
                  QStringLiteral("abc") },
                "must be a number" },
        };
        for (const auto& [args, message] : refused) {
            Run r = cli(scope + args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(message), r.err.constData());
        }
        Run missing = cli(scope
            + QStringList { QStringLiteral("--demand"), QStringLiteral("5"), QStringLiteral("--mix-file"),
                m_apiDir.filePath(QStringLiteral("none.json")) });
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("none.json"));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestPlanModes)
#include "tst_planmodes.moc"
