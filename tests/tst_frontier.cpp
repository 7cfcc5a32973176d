// The frontier, its monotone cubic reading and the ladder statuses (docs/architecture.md section 8), checked against
// values derived by hand or by an independent transcription of the formulas (noted per case).
#include <QtTest>

#include <cmath>

#include "core/analysis/baseline.h"
#include "core/analysis/frontier.h"
#include "core/analysis/hardwarepower.h"
#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/model/precision.h"
#include "tests/support/suite.h"

using namespace paretoscope;

namespace {
std::vector<Point> pts(std::initializer_list<std::pair<double, double>> xy)
{
    std::vector<Point> out;
    long long id = 1;
    for (auto [x, y] : xy)
        out.push_back(Point { x, y, id++ });
    return out;
}
QString str(const std::vector<Point>& p)
{
    QStringList s;
    for (const Point& q : p)
        s << QStringLiteral("(%1,%2)").arg(q.x).arg(q.y);
    return s.join(u' ');
}
GroupFrontier group(const char* engine, std::initializer_list<std::pair<double, double>> xy)
{
    GroupFrontier g;
    g.key = GroupKey { "b300", engine, "fp4", "none" };
    g.points = upperLeftFrontier(pts(xy));
    g.curve = MonotoneCurve(g.points);
    return g;
}
} // namespace

class TestFrontier : public QObject {
    Q_OBJECT
private slots:
    void defaultViewPrecision_data()
    {
        QTest::addColumn<QStringList>("precisions");
        QTest::addColumn<QString>("keep"); // empty: every precision stays
        QTest::newRow("one") << QStringList { QStringLiteral("fp8") } << QStringLiteral("");
        QTest::newRow("fp4 among several") << QStringList { QStringLiteral("bf16"), QStringLiteral("fp4"),
            QStringLiteral("fp8") } << QStringLiteral("fp4");
        QTest::newRow("no fp4: the first by name")
            << QStringList { QStringLiteral("fp8"), QStringLiteral("bf16") } << QStringLiteral("bf16");
    }
    void defaultViewPrecision()
    {
        QFETCH(QStringList, precisions);
        QFETCH(QString, keep);
        std::set<std::string> set;
        for (const QString& p : precisions)
            set.insert(p.toStdString());
        const auto got = paretoscope::defaultViewPrecision(set);
        QCOMPARE(QString::fromStdString(got.value_or("")), keep);
    }

    void baselineRatios_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("status");
        QTest::addColumn<double>("ratio"); // 0: none
        // b300 reads 300 and 120 at targets 50 and 100, mi325x 20 and nothing: ratios by hand
        QTest::newRow("b300 50") << "b300" << 0 << "ok" << 15.0;
        QTest::newRow("b300 100, baseline without a value") << "b300" << 1 << "baseline_no_value" << 0.0;
        QTest::newRow("h100 50, no reading") << "h100" << 0 << "no_value" << 0.0;
        QTest::newRow("mi325x 50, itself") << "mi325x" << 0 << "baseline" << 1.0;
        QTest::newRow("mi325x 100, itself without a value") << "mi325x" << 1 << "baseline" << 0.0;
    }
    void baselineRatios()
    {
        QFETCH(QString, hardware);
        QFETCH(int, row);
        QFETCH(QString, status);
        QFETCH(double, ratio);
        auto ladder = [](std::string hw, std::optional<double> at50, std::optional<double> at100) {
            HardwareLadder l { std::move(hw), { LadderRow {}, LadderRow {} } };
            l.rows[0].reading = l.rows[1].reading = Reading::Frontier; // the values below are frontier readings
            l.rows[0].entry.target = 50;
            l.rows[0].entry.value = at50;
            l.rows[1].entry.target = 100;
            l.rows[1].entry.value = at100;
            return l;
        };
        const std::vector<HardwareLadder> ladders { ladder("b300", 300, 120), ladder("mi325x", 20, std::nullopt),
            ladder("h100", std::nullopt, std::nullopt) };
        const auto ratios = paretoscope::baselineRatios(ladders, "mi325x");
        const std::size_t i = hardware == QStringLiteral("b300") ? 0 : hardware == QStringLiteral("mi325x") ? 1 : 2;
        const BaselineRatio& r = ratios[i][static_cast<std::size_t>(row)];
        QCOMPARE(QString::fromUtf8(baselineStatusName(r.status)), status);
        QCOMPARE(r.ratio.has_value(), ratio != 0);
        if (ratio != 0)
            QVERIFY(std::abs(*r.ratio - ratio) < 1e-12);
        // no baseline, or one without a ladder: nothing to compare with
        QCOMPARE(paretoscope::baselineRatios(ladders, "")[0][0].status, BaselineStatus::NoBaseline);
        QCOMPARE(paretoscope::baselineRatios(ladders, "gb300")[0][0].status, BaselineStatus::NoBaseline);
        QCOMPARE(ratioText(paretoscope::baselineRatios(ladders, "mi325x")[0][0]), std::string("15.0x"));
    }

    void frontier_data()
    {
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("got");
        // dominated points removed: (2,5) is below (3,6) which is further right
        QTest::newRow("dominated") << "(1,10) (3,6) (4,2)"
                                   << str(upperLeftFrontier(pts({ { 1, 10 }, { 2, 5 }, { 3, 6 }, { 4, 2 } })));
        // same x: the higher one stays, whatever the input order
        QTest::newRow("tie x") << "(1,10) (2,8)" << str(upperLeftFrontier(pts({ { 2, 7 }, { 1, 10 }, { 2, 8 } })));
        // same y further right wins: (1,5) is not strictly higher than (2,5)
        QTest::newRow("tie y") << "(2,5)" << str(upperLeftFrontier(pts({ { 1, 5 }, { 2, 5 } })));
        QTest::newRow("non-positive and NaN dropped")
            << "(2,3)" << str(upperLeftFrontier(pts({ { 0, 9 }, { -1, 9 }, { 2, 3 }, { 3, 0 }, { qQNaN(), 5 } })));
        QTest::newRow("one point") << "(5,5)" << str(upperLeftFrontier(pts({ { 5, 5 } })));
        QTest::newRow("empty") << "" << str(upperLeftFrontier({}));
        // rising input (non-monotone): only the rightmost highest survives
        QTest::newRow("rising") << "(3,3)" << str(upperLeftFrontier(pts({ { 1, 1 }, { 2, 2 }, { 3, 3 } })));
        QTest::newRow("zigzag") << "(1,9) (3,7) (5,4) (6,1)"
                                << str(upperLeftFrontier(
                                       pts({ { 1, 9 }, { 2, 6 }, { 3, 7 }, { 4, 3 }, { 5, 4 }, { 6, 1 } })));
    }
    void frontier()
    {
        QFETCH(QString, expected);
        QFETCH(QString, got);
        QCOMPARE(got, expected);
    }

    void frontierIsStrictlyMonotone()
    {
        std::vector<Point> cloud;
        std::uint32_t s = 7;
        for (int i = 0; i < 2000; ++i) {
            s = s * 1664525u + 1013904223u;
            double x = 1 + (s % 1000) / 10.0;
            s = s * 1664525u + 1013904223u;
            cloud.push_back(Point { x, 1 + (s % 100000) / 7.0, i });
        }
        auto f = upperLeftFrontier(cloud);
        QVERIFY(f.size() > 2);
        for (std::size_t i = 1; i < f.size(); ++i) {
            QVERIFY(f[i].x > f[i - 1].x);
            QVERIFY(f[i].y < f[i - 1].y);
        }
        // nothing in the cloud lies above-right of a frontier point
        for (const Point& p : cloud)
            for (const Point& q : f)
                QVERIFY(!(p.x >= q.x && p.y > q.y));
    }

    void reading_data()
    {
        QTest::addColumn<QVector<double>>("xs");
        QTest::addColumn<QVector<double>>("ys");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("expected");
        // collinear knots: all slopes equal s, so the Hermite cubic is the line itself (by hand)
        QTest::newRow("linear mid") << QVector<double> { 1, 2, 3 } << QVector<double> { 30, 20, 10 } << 1.5 << 25.0;
        QTest::newRow("linear 2.75") << QVector<double> { 1, 2, 3 } << QVector<double> { 30, 20, 10 } << 2.75 << 12.5;
        // two knots: s0 = -3, m0 = 3s0/2 = -4.5, m1 = (3s0 - m0)/2 = -2.25; t = 0.5 gives
        // 0.5*10 + 0.125*2*(-4.5) + 0.5*4 - 0.125*2*(-2.25) = 6.4375 (by hand)
        QTest::newRow("two knots") << QVector<double> { 1, 3 } << QVector<double> { 10, 4 } << 2.0 << 6.4375;
        QTest::newRow("knot exact") << QVector<double> { 1, 3 } << QVector<double> { 10, 4 } << 3.0 << 4.0;
        // MI325X published ladder as knots, read between them; expected values from an independent Python
        // transcription of docs/architecture.md section 8 (slopes, end slopes, Hermite basis, clamp)
        const QVector<double> mx { 30, 50, 75, 100, 150, 200 }, my { 24472, 17745, 13945, 11287, 4673, 3435 };
        QTest::newRow("mi325x 40") << mx << my << 40.0 << 20801.250000000004;
        QTest::newRow("mi325x 60") << mx << my << 60.0 << 15801.484;
        QTest::newRow("mi325x 125") << mx << my << 125.0 << 7570.916666666667;
        QTest::newRow("mi325x 175") << mx << my << 175.0 << 3821.875;
        QTest::newRow("mi325x 199") << mx << my << 199.0 << 3447.384952;
        const QVector<double> bx { 50, 75, 100, 150 }, by { 328417, 249248, 214417, 138983 };
        QTest::newRow("b300 60") << bx << by << 60.0 << 293025.008;
        QTest::newRow("b300 90") << bx << by << 90.0 << 226359.704;
        QTest::newRow("b300 120") << bx << by << 120.0 << 184982.216;
        const QVector<double> ux { 1, 2, 4, 8 }, uy { 100, 60, 50, 10 };
        QTest::newRow("uneven 3") << ux << uy << 3.0 << 54.166666666666664;
        QTest::newRow("uneven 6") << ux << uy << 6.0 << 32.5;
        // non-monotone knots (not a frontier, but the curve must still stay inside [min y, max y]):
        // independent transcription gives 2.375 on both sides of the peak
        QTest::newRow("peak left") << QVector<double> { 1, 2, 3 } << QVector<double> { 1, 3, 1 } << 1.5 << 2.375;
        QTest::newRow("peak right") << QVector<double> { 1, 2, 3 } << QVector<double> { 1, 3, 1 } << 2.5 << 2.375;
    }
    void reading()
    {
        QFETCH(QVector<double>, xs);
        QFETCH(QVector<double>, ys);
        QFETCH(double, x);
        QFETCH(double, expected);
        std::vector<Point> knots;
        knots.reserve(xs.size());
        for (int i = 0; i < xs.size(); ++i)
            knots.push_back(Point { xs[i], ys[i], i });
        MonotoneCurve c(knots);
        auto v = c.at(x);
        QVERIFY(v.has_value());
        // tolerance: 1e-9 relative (floating-point order of operations differs from the reference)
        QVERIFY2(std::abs(*v - expected) <= 1e-9 * std::abs(expected), qPrintable(QString::number(*v, 'g', 17)));
    }

    void readingNeverExtrapolates()
    {
        MonotoneCurve c(pts({ { 10, 100 }, { 20, 50 } }));
        QVERIFY(!c.at(9.999).has_value());
        QVERIFY(!c.at(20.001).has_value());
        QCOMPARE(*c.at(10), 100.0);
        QCOMPARE(*c.at(20), 50.0);
        MonotoneCurve one(pts({ { 10, 100 } }));
        QCOMPARE(*one.at(10), 100.0);
        QVERIFY(!one.at(10.5).has_value());
        QVERIFY(!MonotoneCurve().at(1).has_value());
    }

    void readingIsMonotoneOnFrontiers()
    {
        // a decreasing frontier read densely never rises (the point of the monotone slopes)
        MonotoneCurve c(pts({ { 5, 900 }, { 6, 880 }, { 20, 870 }, { 21, 200 }, { 80, 190 }, { 200, 3 } }));
        double last = 1e300;
        for (double x = 5; x <= 200; x += 0.05) {
            double v = *c.at(x);
            QVERIFY2(v <= last + 1e-9, qPrintable(QString::number(x)));
            QVERIFY(v >= 3 && v <= 900);
            last = v;
        }
    }

    void ladderStatuses()
    {
        GroupFrontier vllm = group("vllm", { { 50, 300 }, { 100, 200 }, { 150, 100 } });
        GroupFrontier sglang = group("sglang", { { 180, 90 }, { 220, 80 } });
        std::vector<const GroupFrontier*> groups { &vllm, &sglang };
        auto l = readLadder(groups, { 30, 100, 160, 200, 250 }, false);
        QCOMPARE(l.size(), std::size_t(5));
        QCOMPARE(l[0].status, LadderStatus::BelowRange);
        QVERIFY(!l[0].value);
        QCOMPARE(l[1].status, LadderStatus::Ok);
        QCOMPARE(*l[1].value, 200.0);
        QCOMPARE(l[1].group->engine, std::string("vllm"));
        QCOMPARE(l[2].status, LadderStatus::OutOfRange); // between vllm's end (150) and sglang's start (180)
        QCOMPARE(l[3].status, LadderStatus::Ok);
        QCOMPARE(l[3].group->engine, std::string("sglang"));
        QCOMPARE(l[4].status, LadderStatus::AboveRange);
        QCOMPARE(readLadder({}, { 50 }, false)[0].status, LadderStatus::NoData);

        auto c = readLadder(groups, { 30, 160, 250 }, true);
        QCOMPARE(c[0].status, LadderStatus::BelowRange);
        QCOMPARE(*c[0].value, 300.0); // the nearest covered x is vllm's left end, 50
        QCOMPARE(c[0].clamped, Clamp::Below);
        QCOMPARE(*c[1].value, 100.0); // 160 is nearer vllm's right end (150) than sglang's left end (180)
        QCOMPARE(c[1].clamped, Clamp::Above);
        QCOMPARE(*c[2].value, 80.0); // 250 is read at sglang's right end, 220
        QCOMPARE(c[2].clamped, Clamp::Above);
    }

    void ladderPicksHighestCoveringGroup()
    {
        GroupFrontier a = group("vllm", { { 10, 100 }, { 100, 10 } });
        GroupFrontier b = group("sglang", { { 40, 60 }, { 60, 20 } });
        auto l = readLadder({ &a, &b }, { 40, 60 }, false);
        // at 40: vllm reads below 100 and above 60? read it, compare with sglang's exact knot value 60
        double va = *a.curve.at(40);
        QCOMPARE(l[0].group->engine, std::string(va > 60 ? "vllm" : "sglang"));
        QCOMPARE(*l[0].value, std::max(va, 60.0));
        QCOMPARE(l[1].group->engine, std::string("vllm")); // sglang's 20 is lower at 60
    }

    // A reading between measured points more than 2x apart is sparse, says which points, and can be left out: the
    // B200 case of a two-run frontier (21 and 309 tok/s/user) that supplied every ladder value from 30 to 200.
    void sparseReadingsAreMarkedAndCanBeHidden()
    {
        GroupFrontier wide = group("dynamo-trt", { { 21, 9000 }, { 309, 3000 } });
        GroupFrontier dense = group("vllm", { { 40, 5000 }, { 60, 4000 }, { 90, 3000 } });
        auto l = readLadder({ &wide }, { 21, 50, 200 }, false);
        QVERIFY(!l[0].sparse); // at a measured point
        QVERIFY(l[1].sparse && l[2].sparse);
        QCOMPARE(l[1].knotBelow, 21.0);
        QCOMPARE(l[1].knotAbove, 309.0);
        // 59 and 61 tok/s/user are 1.03x apart: not sparse; the dense group's 2x bound is exact
        GroupFrontier twice = group("sglang", { { 50, 100 }, { 100, 50 } });
        QVERIFY(!readLadder({ &twice }, { 75 }, false)[0].sparse);
        GroupFrontier more = group("sglang", { { 50, 100 }, { 100.5, 50 } });
        QVERIFY(readLadder({ &more }, { 75 }, false)[0].sparse);

        // hidden: the dense group answers where it covers, nothing answers where only the wide one does
        auto h = readLadder({ &wide, &dense }, { 50, 200 }, false, true);
        QCOMPARE(h[0].status, LadderStatus::Ok);
        QCOMPARE(h[0].group->engine, std::string("vllm"));
        QVERIFY(!h[0].sparse);
        QCOMPARE(h[1].status, LadderStatus::Sparse);
        QVERIFY(!h[1].value);
        // shown: the wide group's higher interpolated value wins at 50, marked
        auto s = readLadder({ &wide, &dense }, { 50 }, false);
        QCOMPARE(s[0].group->engine, std::string("dynamo-trt"));
        QVERIFY(s[0].sparse);
    }

    // Each hardware's best reading, keyed by name: nine hardware keep nine answers (no two merge, whatever their
    // number), each the ladder's answer for that hardware; hidden groups and hidden sparse readings do not count.
    void bestReadingPerHardwareIsTheLaddersRule()
    {
        const char* names[] = { "b200", "b300", "gb200", "gb300", "h100", "h200", "mi300x", "mi325x", "mi355x" };
        std::vector<GroupFrontier> groups;
        for (int k = 0; k < 9; ++k) {
            // trt above sglang at 50 on odd hardware, below it on even
            GroupFrontier s = group("sglang", { { 10, 1000.0 + 100 * k }, { 100, 100.0 + 10 * k } });
            GroupFrontier t = group("trt", { { 10, (k % 2 ? 1500.0 : 500.0) + 100 * k }, { 100, 100.0 + 10 * k } });
            s.key.hardware = t.key.hardware = names[k];
            groups.push_back(std::move(s));
            groups.push_back(std::move(t));
        }
        const auto best = bestReadingPerHardware(groups, 50);
        QCOMPARE(best.size(), std::size_t(9));
        for (int k = 0; k < 9; ++k) {
            const BestReading& b = best.at(names[k]);
            QCOMPARE(groups[b.group].key.hardware, std::string(names[k]));
            QCOMPARE(groups[b.group].key.engine, std::string(k % 2 ? "trt" : "sglang"));
            std::vector<const GroupFrontier*> mine { &groups[2 * std::size_t(k)], &groups[2 * std::size_t(k) + 1] };
            const LadderEntry e = readLadder(mine, { 50 }, false)[0];
            QCOMPARE(b.value, *e.value);
            QCOMPARE(*e.group, groups[b.group].key);
        }
        // the better group of b300 switched off: its other group answers; no hardware covers 500
        std::vector<bool> counted(groups.size(), true);
        counted[3] = false;
        QCOMPARE(groups[bestReadingPerHardware(groups, 50, false, counted).at("b300").group].key.engine,
            std::string("sglang"));
        QVERIFY(bestReadingPerHardware(groups, 500).empty());
        // only a sparse reading (10 to 100 is 10x apart) covers 50: hidden, b200 has none
        QVERIFY(!bestReadingPerHardware(groups, 50, true).count("b200"));
    }

    // Two readings at a target (docs/architecture.md section 10), worked by hand. TP8 measured (10, 2000) at
    // concurrency 256 and (16, 1500) at 128; TP4 (60, 700) at 16 and (140, 300) at 4. At 40 tok/s/user the frontier
    // reads between 16 (TP8) and 60 (TP4), 3.75x apart, across configurations; no TP8 point reaches 40, so one
    // configuration delivers TP4's 700 at concurrency 16, run at 60. At 100 TP4 alone brackets the target: its own
    // two-knot curve (Hermite, end slopes 1.5 s and 0.75 s of the secant s = -5) gives 500 - 75 + 37.5 = 462.5, at
    // concurrency 4 x 4^f with f = ln(100/140) / ln(60/140), sparse (140 / 60 > 2). Past 140 nothing reaches.
    void deployableReadingBesideTheFrontiers()
    {
        const Point a { 10, 2000, 1 }, b { 16, 1500, 2 }, c { 60, 700, 3 }, d { 140, 300, 4 };
        auto g = makeGroupFrontier(GroupKey { "b300", "vllm", "fp4", "none" }, { a, b, c, d });
        QVERIFY(g);
        ConfigLine tp8, tp4;
        tp8.knots = { a, b };
        tp8.concurrencies = { 256, 128 };
        tp8.curve = MonotoneCurve(tp8.knots);
        tp4.knots = { c, d };
        tp4.concurrencies = { 16, 4 };
        tp4.curve = MonotoneCurve(tp4.knots);
        g->lines = { tp8, tp4 };
        const std::vector<LadderEntry> e = readLadder({ &*g }, { 40, 100, 150 }, false);
        QVERIFY(e[0].value && *e[0].value < 1500 && *e[0].value > 700);
        QVERIFY(e[0].deployable);
        QCOMPARE(e[0].deployable->value, 700.0);
        QCOMPARE(e[0].deployable->concurrency, 16.0);
        QCOMPARE(e[0].deployable->interactivity, 60.0);
        QVERIFY(!e[0].deployable->interpolated);
        QCOMPARE(*e[0].frontierRatio(), *e[0].value / 700);
        QVERIFY(e[0].readingsDiffer());
        // within 1% the two are one number (no ratio, no sentence), past it they differ; a clamped value counts as
        // both readings
        LadderEntry near = e[0];
        near.value = 706.0; // 0.86% above 700
        QVERIFY(!near.readingsDiffer());
        QVERIFY(readingsDifferSentence(near).empty());
        near.value = 714.0; // 2%
        QVERIFY(near.readingsDiffer());
        QVERIFY(!readingsDifferSentence(near).empty());
        near.clamped = Clamp::Above;
        QVERIFY(!near.readingsDiffer());
        const QString why = QString::fromStdString(readingsDifferSentence(e[0]));
        QVERIFY2(
            why.contains(QStringLiteral("between measured points at 16 and 60 tok/s/user (3.8x apart); the best single "
                                        "configuration (vLLM · FP4 at concurrency 16, run at 60 tok/s/user) delivers "
                                        "700 (")),
            qPrintable(why));
        QVERIFY(e[1].deployable && e[1].deployable->interpolated && e[1].deployable->sparse);
        QVERIFY(std::abs(e[1].deployable->value - 462.5) < 1e-9);
        const double f = std::log(100.0 / 140) / std::log(60.0 / 140);
        QVERIFY(std::abs(e[1].deployable->concurrency - 4 * std::pow(4.0, f)) < 1e-9);
        QCOMPARE(e[1].deployable->knotBelow, 60.0);
        QCOMPARE(e[1].deployable->knotAbove, 140.0);
        // where sparse readings are left out, the faster knot is what one configuration delivers: 300 at 140
        const auto hidden = readLadder({ &*g }, { 100 }, false, true)[0].deployable;
        QVERIFY(hidden && !hidden->interpolated);
        QCOMPARE(hidden->value, 300.0);
        QCOMPARE(hidden->interactivity, 140.0);
        QVERIFY(!e[2].deployable);
        QVERIFY(readingsDifferSentence(e[2]).empty());
        // the cost, the ratio to a baseline and the energy are of the reading chosen: one configuration's by
        // default ($3.60/hr at 700 tok/s/GPU: 2.52M tokens an hour, $1/0.7 per million), the frontier's on request
        LadderRequest req;
        req.targets = { 40 };
        req.price.customUsdPerGpuHour = 3.6;
        auto byDefault = computeLadder({ *g }, bundledPricing(), req);
        QVERIFY(byDefault);
        const LadderRow& one = byDefault->at(0).rows.at(0);
        QCOMPARE(one.reading, Reading::Deployable);
        QCOMPARE(*one.value(), 700.0);
        QVERIFY(std::abs(*one.costPerMTok - 1 / 0.7) < 1e-12);
        QVERIFY(std::abs(*one.allInJoulesPerToken - bundledHardwarePower().find("b300")->allInKw * 1000 / 700) < 1e-9);
        req.reading = Reading::Frontier;
        auto frontier = computeLadder({ *g }, bundledPricing(), req);
        QVERIFY(frontier);
        const LadderRow& across = frontier->at(0).rows.at(0);
        QCOMPARE(*across.value(), *e[0].value);
        QVERIFY(std::abs(*across.costPerMTok - 3.6e6 / (3600 * *e[0].value)) < 1e-12);
        QCOMPARE(parseReading("frontier"), std::optional<Reading>(Reading::Frontier));
        QCOMPARE(parseReading("deployable"), std::optional<Reading>(Reading::Deployable));
        QVERIFY(!parseReading("best"));
    }

    void pricing()
    {
        // docs/architecture.md section 14 figures at 50 tok/s/user
        QCOMPARE(QString::number(costPerMillionTokens(2.26, 328417), 'f', 3), QStringLiteral("0.002"));
        QCOMPARE(QString::number(costPerMillionTokens(4.25, 328417), 'f', 3), QStringLiteral("0.004"));
        QCOMPARE(QString::number(costPerMillionTokens(1.10, 17745), 'f', 3), QStringLiteral("0.017"));
        QCOMPARE(QString::number(costPerMillionTokens(1.60, 17745), 'f', 3), QStringLiteral("0.025"));
        // by hand: $3.60/hr at 1,000 tok/s = 3.6M tok/hr -> $1.00 per million; 1M tokens per dollar
        QCOMPARE(costPerMillionTokens(3.6, 1000), 1.0);
        QCOMPARE(tokensPerDollar(3.6, 1000), 1e6);
        QCOMPARE(joulesPerToken(700, 1400), 0.5);
        QCOMPARE(tokensPerSecondPerMegawatt(1400, 700), 2e6);
    }

    void bundledPricingTiers()
    {
        const PricingCatalog& p = bundledPricing();
        QCOMPARE(QString::fromStdString(p.source),
            QStringLiteral("SemiAnalysis Market July 2026 Pricing Surveys & AI Cloud TCO Model"));
        QCOMPARE(*p.find("hyperscaler")->price("b300"), 2.26);
        QCOMPARE(*p.find("retail")->price("b300"), 4.25);
        QCOMPARE(*p.find("hyperscaler")->price("mi325x"), 1.10);
        QCOMPARE(*p.find("retail")->price("mi325x"), 1.60);
        QCOMPARE(*p.find("mid2026-neocloud")->price("b300"), 2.52);
        QCOMPARE(*p.find("mid2026-rental-3y")->price("mi355x"), 2.10);
        QCOMPARE(p.tiers.size(), std::size_t(5));
        for (const auto& t : p.tiers)
            QCOMPARE(t.usdPerGpuHour.size(), std::size_t(9));
        QVERIFY(!parsePricing("{\"source\":\"x\",\"tables\":[{\"name\":\"a\",\"tiers\":[{\"key\":\"k\",\"label\":\"l\","
                              "\"usd_per_gpu_hour\":{\"b300\":-1}}]}]}")
                     .ok());
    }
};

PARETOSCOPE_GUILESS_SUITE(TestFrontier)
#include "tst_frontier.moc"
