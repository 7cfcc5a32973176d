// The explorer's History tab (offscreen) on a crafted store with runs on three dates: its points against readings
// worked out by hand from the crafted runs and against `paretoscope-cli history --format json` (a peer
// implementation), tooltips that name the configuration, an engine change marked, nothing computed while the tab is
// hidden, the latest target winning, and the comparison of two dates against the change in % by hand.
#include <QtTest>

#include <QLabel>

#include <QGraphicsSimpleTextItem>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QProcess>
#include <QScatterSeries>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolTip>
#include <map>
#include <set>

#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "core/output/historyreports.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/history/historychart.h"
#include "widgets/history/historypanel.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

// One crafted run: hardware, engine, concurrency (which sets its interactivity), run date, tok/s/GPU.
struct DatedRun {
    const char* hardware;
    const char* engine;
    int concurrency;
    const char* date;
    double tput;
};

// Interactivity falls as concurrency grows: the reading at 50 tok/s/user is the knot of concurrency 8, at 100 the
// knot of concurrency 4.
double interactivityOf(int concurrency)
{
    return 400.0 / concurrency;
}

// January: B300 on vLLM, MI325X. February: B300 measured on SGLang, better at every target (the reading's engine
// changes), MI325X again. March: B300 on vLLM again (still below SGLang: no change), H200 for the first time.
const std::vector<DatedRun> kDatedRuns {
    { "b300", "vllm", 4, "2026-01-10", 500 },
    { "b300", "vllm", 8, "2026-01-10", 900 },
    { "b300", "vllm", 16, "2026-01-10", 1200 },
    { "mi325x", "vllm", 4, "2026-01-10", 200 },
    { "mi325x", "vllm", 8, "2026-01-10", 300 },
    { "b300", "sglang", 4, "2026-02-01", 700 },
    { "b300", "sglang", 8, "2026-02-01", 1100 },
    { "b300", "sglang", 16, "2026-02-01", 1400 },
    { "mi325x", "vllm", 4, "2026-02-01", 220 },
    { "mi325x", "vllm", 8, "2026-02-01", 350 },
    { "b300", "vllm", 8, "2026-03-05", 1000 },
    { "h200", "vllm", 4, "2026-03-05", 150 },
    { "h200", "vllm", 8, "2026-03-05", 250 },
};
const std::vector<int> kDays { 20260110, 20260201, 20260305 };

// The readings at 50 tok/s/user by hand: per hardware and day, the best latest run of concurrency 8 on or before it.
const std::map<std::string, std::map<int, double>> kAt50 {
    { "b300", { { 20260110, 900 }, { 20260201, 1100 }, { 20260305, 1100 } } },
    { "h200", { { 20260305, 250 } } },
    { "mi325x", { { 20260110, 300 }, { 20260201, 350 }, { 20260305, 350 } } },
};

QJsonObject datedRecordJson(const DatedRun& c)
{
    return QJsonObject { { QStringLiteral("schema"), QStringLiteral("paretoscope.run/1") },
        { QStringLiteral("model"), QStringLiteral("m") },
        { QStringLiteral("hardware"), QString::fromLatin1(c.hardware) },
        { QStringLiteral("engine"), QString::fromLatin1(c.engine) },
        { QStringLiteral("precision"), QStringLiteral("fp4") },
        { QStringLiteral("spec_decoding"), QStringLiteral("none") }, { QStringLiteral("tp"), 8 },
        { QStringLiteral("gpus"), 8 }, { QStringLiteral("isl"), 1024 }, { QStringLiteral("osl"), 1024 },
        { QStringLiteral("concurrency"), c.concurrency },
        { QStringLiteral("interactivity_tok_s_user"), interactivityOf(c.concurrency) },
        { QStringLiteral("tput_per_gpu_tok_s"), c.tput }, { QStringLiteral("run_date"), QString::fromLatin1(c.date) } };
}

// `paretoscope-cli history --format json` at a target: hardware -> day -> its reading.
std::map<std::string, std::map<int, QJsonObject>> cliHistory(const QString& db, double target)
{
    QProcess p;
    p.start(cliProgram(),
        { QStringLiteral("history"), QStringLiteral("--db"), db, QStringLiteral("--model"), QStringLiteral("m"),
            QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024"),
            QStringLiteral("--target"), QString::number(target), QStringLiteral("--format"), QStringLiteral("json") });
    p.waitForFinished(30000);
    std::map<std::string, std::map<int, QJsonObject>> out;
    const QJsonObject all = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    for (auto it = all.begin(); it != all.end(); ++it)
        for (const QJsonValue v : it.value().toArray())
            out[it.key().toStdString()][dayNumber(v.toObject()[QStringLiteral("date")].toString().toStdString())]
                = v.toObject();
    return out;
}

} // namespace

class TestHistoryTab : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    HistoryPanel* panel() const { return m_window->history(); }
    QString dbPath() const { return m_dir.filePath(QStringLiteral("store.sqlite")); }

    // Puts the History tab in front (or another) and waits for what the panel computes.
    bool showHistory()
    {
        QSignalSpy spy(panel(), &HistoryPanel::shown);
        m_window->showPanel(panel());
        return spy.wait(10000);
    }
    bool waitShown()
    {
        QSignalSpy spy(panel(), &HistoryPanel::shown);
        return spy.wait(10000);
    }

    // Each drawn knot's value and what the panel holds from core, against the CLI's history at the same target.
    void compareWithCli(double target)
    {
        const auto cli = cliHistory(dbPath(), target);
        QCOMPARE(cli.size(), std::size_t(3));
        std::size_t withValue = 0;
        for (const auto& [hw, days] : cli)
            for (const auto& [day, o] : days) {
                const QString tip = panel()->chart()->toolTipAt(hw, day);
                if (o[QStringLiteral("tput_per_gpu")].isNull()) {
                    QVERIFY2(tip.isEmpty(),
                        qPrintable(QString::fromStdString(hw) + QStringLiteral(" ") + QString::number(day)));
                    continue;
                }
                ++withValue;
                bool found = false;
                for (const HistoryChart::Point& p : panel()->chart()->points())
                    if (p.hardware == hw && p.day == day) {
                        found = true;
                        QCOMPARE(p.value,
                            o[QStringLiteral("tput_per_gpu")].toDouble()); // the same double, printed and read back
                        QCOMPARE(QString::fromStdString(p.key.engine), o[QStringLiteral("engine")].toString());
                    }
                QVERIFY(found);
            }
        QCOMPARE(panel()->chart()->points().size(), withValue);
    }

    void savePicture(const QString& name)
    {
        QTest::qWait(50); // Qt Charts lays its axes out on the next turn of the event loop
        QVERIFY(panel()->grab().save((shotDir() + QStringLiteral("/")) + name));
    }

private slots:
    void initTestCase()
    {
        QJsonArray runs;
        for (const DatedRun& c : kDatedRuns)
            runs.append(datedRecordJson(c));
        std::string error;
        m_window = windowOnRecords(m_dir, "tst_history_tab", runs, error);
        QVERIFY2(m_window, error.c_str());
        m_window->readout()->setTarget(50);
        QVERIFY(m_window->currentPanel() == m_window->ladder());
    }

    // Behind another tab the panel computes nothing, whatever the target does; shown, it computes once.
    void computesNothingWhileHidden()
    {
        QCOMPARE(panel()->computations(), 0);
        for (double t : { 60.0, 70.0, 80.0, 50.0 })
            m_window->readout()->setTarget(t);
        m_window->readout()->setPrice({}, 3.5); // a custom price
        QTest::qWait(50);
        QCOMPARE(panel()->computations(), 0);
        QVERIFY(panel()->history().empty());
        QVERIFY(showHistory());
        QCOMPARE(panel()->computations(), 1);
        qInfo("history computed in %.2f ms on the panel's thread, laid out in %.2f ms on the GUI thread",
            panel()->lastComputeMs(), panel()->lastPresentMs());
    }

    // The knots are the readings by hand at 50 tok/s/user, on the days each hardware has one, and the CLI's.
    void pointsAreTheReadings()
    {
        QVERIFY(m_window->currentPanel() == panel());
        std::map<std::string, std::map<int, double>> drawn;
        for (const HistoryChart::Point& p : panel()->chart()->points())
            drawn[p.hardware][p.day] = p.value;
        QCOMPARE(drawn, kAt50); // H200 has no point before its first run
        compareWithCli(50);
        // the lines go through the knots: every line point is a knot, every knot on a line
        std::set<std::pair<double, double>> lines, knots;
        for (QAbstractSeries* s : panel()->chart()->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(s); line && s->type() == QAbstractSeries::SeriesTypeLine)
                for (const QPointF& p : line->points())
                    lines.insert({ p.x(), p.y() });
        for (const auto& [hw, days] : kAt50)
            for (const auto& [day, v] : days)
                knots.insert({ HistoryChart::dayX(day), v });
        QCOMPARE(lines, knots);
        savePicture(QStringLiteral("history-tab.png"));
    }

    // A knot's tooltip names its configuration, reading, price and date; B300's switch to SGLang is marked.
    void tooltipsAndEngineChange()
    {
        const QString tip = panel()->chart()->toolTipAt("b300", 20260201);
        for (const char* words : { "B300", "2026-02-01", "SGLang", "FP4", "no spec decoding", "1,100 tok/s/GPU",
                 "at 50 tok/s/user", "per M tok", "changed from vLLM" })
            QVERIFY2(tip.contains(QLatin1String(words)), qPrintable(tip));
        // the readout's custom $3.50/GPU/hr over 1,100 tok/s/GPU: 3.5 / (1100 x 3600) x 1e6 = $0.884 per M tok
        QVERIFY2(tip.contains(QLatin1String("$0.884 per M tok")), qPrintable(tip));
        std::map<std::pair<std::string, int>, QString> changed;
        for (const HistoryChart::Point& p : panel()->chart()->points())
            if (p.changed)
                changed[{ p.hardware, p.day }] = p.label;
        const std::map<std::pair<std::string, int>, QString> expected { { { "b300", 20260201 },
            QStringLiteral("SGLang") } };
        QCOMPARE(changed, expected);
        QVERIFY(!panel()->chart()->toolTipAt("b300", 20260305).contains(QLatin1String("changed")));
        // the label stands on the chart
        bool labelled = false;
        for (QGraphicsItem* item : panel()->chart()->scene()->items())
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                labelled |= text->isVisible() && text->text() == QLatin1String("SGLang");
        QVERIFY(labelled);
        // hovering the knot shows that tooltip
        const QPointF knot(HistoryChart::dayX(20260201), 1100);
        QScatterSeries* knots = nullptr;
        for (QAbstractSeries* series : panel()->chart()->chart()->series())
            if (auto* sc = qobject_cast<QScatterSeries*>(series);
                sc && sc->markerSize() < 12 && sc->points().contains(knot))
                knots = sc;
        QVERIFY(knots);
        emit knots->hovered(knot, true);
        QTRY_VERIFY(QToolTip::text().contains(QString::fromUtf8("SGLang · FP4 · no spec decoding")));
        emit knots->hovered(knot, false);
    }

    // Targets set faster than the panel computes: at most one computation waits behind the running one, and what
    // stays on screen is the last target's history.
    void latestTargetWins()
    {
        const int before = panel()->computations();
        for (double t : { 55.0, 60.0, 65.0, 70.0, 75.0 })
            m_window->readout()->setTarget(t);
        QTRY_VERIFY_WITH_TIMEOUT(!panel()->history().empty() && panel()->computations() >= before + 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            panel()->chart()->toolTipAt("b300", 20260110).contains(QLatin1String("at 75")), true, 10000);
        QVERIFY(panel()->computations() <= before + 2);
        compareWithCli(75);
        m_window->readout()->setTarget(50);
        QVERIFY(waitShown());
    }

    // A target moved keeps the series it draws again and only moves their points (new series cost Qt Charts 1 to 3
    // ms a step): what is on the chart is what a chart drawn afresh shows (the same series in the same order, their
    // points, names and legend entries).
    void aMovedTargetDrawsWhatAFreshChartDraws()
    {
        QVERIFY(panel()->isVisible() || showHistory());
        std::set<const QAbstractSeries*> before;
        std::set<double> keptAt; // the targets whose chart kept a series of the one before
        for (double t : { 40.0, 60.0, 90.0, 130.0, 200.0, 90.0, 55.0, 30.0, 50.0 }) {
            for (const QAbstractSeries* s : panel()->chart()->chart()->series())
                before.insert(s);
            m_window->readout()->setTarget(t);
            QVERIFY(waitShown());
            HistoryChart fresh; // shown, as its legend's markers are visible only on a shown chart
            fresh.resize(panel()->chart()->size());
            fresh.show();
            fresh.setHistory(panel()->history(), t, m_window->readout()->tputMetric());
            QTest::qWait(10); // the legend lays its markers out
            const QList<QAbstractSeries*> drawn = panel()->chart()->chart()->series();
            const QList<QAbstractSeries*> expected = fresh.chart()->series();
            QCOMPARE(drawn.size(), expected.size());
            for (qsizetype i = 0; i < drawn.size(); ++i) {
                if (before.count(drawn[i]) > 0)
                    keptAt.insert(t);
                QCOMPARE(drawn[i]->type(), expected[i]->type());
                QCOMPARE(drawn[i]->name(), expected[i]->name());
                QCOMPARE(static_cast<QXYSeries*>(drawn[i])->points(), static_cast<QXYSeries*>(expected[i])->points());
                const auto shownInLegend = [](QChart* chart, QAbstractSeries* series) {
                    const auto markers = chart->legend()->markers(series);
                    return !markers.isEmpty() && markers.front()->isVisible();
                };
                QCOMPARE(shownInLegend(panel()->chart()->chart(), drawn[i]), shownInLegend(fresh.chart(), expected[i]));
            }
            before.clear();
        }
        // 40 to 60 tok/s/user: B300's series kept, H200's and MI325X's added after them
        QVERIFY2(keptAt.count(60.0) > 0, "a moved target kept the series it draws again");
    }

    // A drag: a target every 5 ms for 200 ms. A history is started at most every 40 ms (the readout and the chart
    // follow each step; laying out and painting each history took 3 to 5 ms of a step), and the last target's is
    // the one shown.
    void aDragComputesAHistoryAtMostEvery40Ms()
    {
        QVERIFY(panel()->isVisible() || showHistory());
        QTest::qWait(50); // the last computation started long enough ago
        const int before = panel()->computations();
        QElapsedTimer drag;
        drag.start();
        double t = 40;
        for (int i = 0; i < 40; ++i) {
            t = 40 + i;
            m_window->readout()->setTarget(t);
            QTest::qWait(5);
        }
        const qint64 ms = drag.elapsed();
        QTRY_COMPARE_WITH_TIMEOUT(
            panel()->chart()->toolTipAt("b300", 20260110).contains(QStringLiteral("at %1").arg(t)), true, 10000);
        const int started = panel()->computations() - before;
        QVERIFY2(started >= 2 && started <= int(ms / 40) + 2,
            qPrintable(QStringLiteral("%1 histories in a %2 ms drag").arg(started).arg(ms)));
        m_window->readout()->setTarget(50);
        QVERIFY(waitShown());
    }

    // Compare 2026-01-10 with 2026-03-05 at the ladder's targets 50 and 100: the change in % by hand.
    void compareTwoDates()
    {
        m_window->ladder()->setTargets({ 50, 100 });
        panel()->setCompareMode(true);
        QVERIFY(waitShown());
        // the first and the latest run date unless chosen
        QCOMPARE(panel()->beforeDay(), 20260110);
        QCOMPARE(panel()->afterDay(), 20260305);
        panel()->setCompareDays(20260201, 20260305);
        QVERIFY(waitShown());
        QCOMPARE(*panel()->diff()[0].rows[0].changePct, 0.0); // B300 1,100 on both dates
        panel()->setCompareDays(20260110, 20260305);
        QVERIFY(waitShown());
        const auto& diff = panel()->diff();
        QCOMPARE(diff.size(), std::size_t(3));
        // B300 900 -> 1100 (SGLang) at 50, 500 -> 700 at 100; MI325X 300 -> 350, 200 -> 220; H200 none -> 250
        const std::map<std::string, std::vector<std::optional<double>>> pct {
            { "b300", { 100.0 * (1100.0 / 900 - 1), 100.0 * (700.0 / 500 - 1) } },
            { "mi325x", { 100.0 * (350.0 / 300 - 1), 100.0 * (220.0 / 200 - 1) } },
            { "h200", { std::nullopt, std::nullopt } }
        };
        for (const HardwareDiff& h : diff) {
            QVERIFY(pct.count(h.hardware));
            QCOMPARE(h.rows.size(), std::size_t(2));
            for (std::size_t i = 0; i < 2; ++i) {
                const auto& want = pct.at(h.hardware)[i];
                QCOMPARE(h.rows[i].changePct.has_value(), want.has_value());
                if (want)
                    QVERIFY(std::abs(*h.rows[i].changePct - *want) < 1e-9);
                QVERIFY(!h.rows[i].withinSpread); // one run per configuration: no spread
            }
        }
        QTableWidget* t = panel()->diffTable();
        QCOMPARE(t->rowCount(), 6);
        QStringList changes;
        for (int r = 0; r < t->rowCount(); ++r)
            changes << t->item(r, 0)->text() + QLatin1Char(' ') + t->item(r, 1)->text() + QLatin1Char(' ')
                    + t->item(r, 4)->text();
        QCOMPARE(changes,
            QStringList({ QStringLiteral("B300 50 +22.2%"), QStringLiteral("B300 100 +40.0%"),
                QStringLiteral("H200 50 –"), QStringLiteral("H200 100 –"), QStringLiteral("MI325X 50 +16.7%"),
                QStringLiteral("MI325X 100 +10.0%") }));
        QVERIFY(t->horizontalHeaderItem(2)->text().contains(QLatin1String("2026-01-10")));
        QVERIFY(t->horizontalHeaderItem(3)->text().contains(QLatin1String("2026-03-05")));
        QCOMPARE(t->item(1, 6)->text(), QStringLiteral("SGLang · FP4")); // B300's configuration as of March
        savePicture(QStringLiteral("history-compare.png"));
    }

    // The export writes what the tab shows: the comparison now, the history after switching back.
    void exportsWhatIsShown()
    {
        const QString path = m_dir.filePath(QStringLiteral("history.csv"));
        QVERIFY(m_window->exportHistoryCsv(path).ok());
        QCOMPARE(readAll(path).toStdString(), diffCsv(panel()->diff(), "2026-01-10", "2026-03-05"));
        panel()->setCompareMode(false);
        QVERIFY(waitShown());
        QVERIFY(m_window->exportHistoryCsv(path).ok());
        QCOMPARE(readAll(path).toStdString(), historyCsv(panel()->history()));
        QCOMPARE(readAll(path).count('\n'), 1 + 3 * 3); // a header, then a row per hardware and run date
    }

    // With every run (--runs all), MI325X's two runs of a configuration give its March reading a spread of reruns,
    // 350 [300 - 350] at 50 tok/s/user, which takes in January's 300: the change says so instead of a winner.
    void compareSaysWithinSpread()
    {
        panel()->setCompareMode(true);
        panel()->setCompareDays(20260110, 20260305);
        m_window->filters()->runDates()->setRuns(RunSelection::All);
        QTRY_VERIFY_WITH_TIMEOUT(panel()->compareMode() && !panel()->diff().empty()
                && panel()->diff().back().hardware == "mi325x" && panel()->diff().back().rows[0].after.entry.low,
            10000);
        const DiffRow& mi = panel()->diff().back().rows[0];
        QCOMPARE(*mi.after.entry.low, 300.0);
        QCOMPARE(*mi.after.entry.high, 350.0);
        QVERIFY(mi.withinSpread);
        QVERIFY(!panel()->diff().front().rows[0].withinSpread); // B300's SGLang reading has no reruns
        QTableWidget* t = panel()->diffTable();
        QCOMPARE(t->item(4, 0)->text(), QStringLiteral("MI325X"));
        QCOMPARE(t->item(4, 4)->text(), QStringLiteral("+16.7% (within run-to-run spread)"));
        QCOMPARE(t->item(4, 3)->text(), QString::fromUtf8("350 [300 – 350]"));
        QCOMPARE(t->item(0, 4)->text(), QStringLiteral("+22.2%"));
        m_window->filters()->runDates()->setRuns(RunSelection::Latest);
    }

    // A past as-of day (the run dates slider) is marked on the history's timeline, which runs on past it, and the
    // plan says it is computed as of that day; the latest day has no mark.
    void thePastAsOfDayIsMarkedAndSaid()
    {
        QVERIFY(showHistory());
        const std::vector<int> days = m_window->filters()->runDates()->days();
        QVERIFY(days.size() >= 3);
        const int middle = days[days.size() / 2];
        const QString iso = QDate(middle / 10000, middle / 100 % 100, middle % 100).toString(Qt::ISODate);
        m_window->filters()->runDates()->setAsOf(iso.toStdString());
        QTRY_COMPARE(panel()->chart()->asOf(), middle);
        const QLineF line = panel()->chart()->asOfLine();
        const QRectF plot = panel()->chart()->chart()->plotArea();
        QVERIFY2(!line.isNull() && line.x1() > plot.left() && line.x1() < plot.right(),
            qPrintable(QStringLiteral("%1 in %2..%3").arg(line.x1()).arg(plot.left()).arg(plot.right())));
        m_window->showPanel(m_window->plan());
        const auto said = [&] {
            QStringList texts;
            for (const QLabel* l : m_window->plan()->findChildren<QLabel*>())
                if (l->text().startsWith(QStringLiteral("As of ") + iso))
                    return QString();
                else
                    texts << l->text();
            return texts.join(u'|');
        };
        QTRY_VERIFY_WITH_TIMEOUT(said().isEmpty(), 10000);
        QVERIFY2(said().isEmpty(), qPrintable(said()));
        m_window->filters()->runDates()->setAsOf(std::string());
        QTRY_COMPARE(panel()->chart()->asOf(), 0);
        QVERIFY(panel()->chart()->asOfLine().isNull());
        m_window->showPanel(panel());
    }

    void cleanupTestCase() { m_window.reset(); }
};

PARETOSCOPE_SUITE(TestHistoryTab)
#include "tests/support/testpaths.h"
#include "tst_history_tab.moc"
