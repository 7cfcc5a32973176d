// The main window on the bundled dataset (offscreen): the readout against the CLI, tiers and the custom price, the
// legend, the chart's points from the store worker, the run cloud, hover, the marker, item models, the screenshot of
// the main window, and a live session's levels on the chart.
#include <QHelpEvent>
#include <QListWidget>
#include <QToolTip>
#include <QtTest>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QProcess>
#include <QRadioButton>
#include <QSlider>
#include <QTableView>
#include <map>
#include <set>

#include "core/analysis/pricing.h"
#include "core/import/bundled.h"
#include "tests/support/bundledwindowfixture.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/chart/runcloud.h"
#include "widgets/session/sessiondialog.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

constexpr double kRel = 1e-12; // the same double arithmetic on both sides

// Notes the paint events of some widgets, by name, in the order they come.
class PaintWatch : public QObject {
public:
    PaintWatch(QStringList& order, std::map<QObject*, QString> names)
        : m_order(order)
        , m_names(std::move(names))
    {
        for (const auto& [w, name] : m_names)
            w->installEventFilter(this);
    }
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            m_order << m_names.at(watched);
        return false;
    }

private:
    QStringList& m_order;
    std::map<QObject*, QString> m_names;
};

} // namespace

class TestMainWindow : public BundledWindowFixture {
    Q_OBJECT
private:
    // Waits until the store worker has answered everything asked and the chart panel paints again (no held repaint),
    // twice with a pause between: what a test asked before has landed and been drawn. False after 10 seconds.
    bool waitQuiet()
    {
        const auto quiet
            = [this] { return !m_window->storeWorker().busy() && m_window->chartPanel()->updatesEnabled(); };
        if (!QTest::qWaitFor(quiet, 10000))
            return false;
        QTest::qWait(50);
        return QTest::qWaitFor(quiet, 10000);
    }

    // Moves the slider, as a user drags it, until the target reads `target`.
    bool slideTo(double target)
    {
        QSlider* s = m_window->readout()->slider();
        for (int p = s->minimum(); p <= s->maximum(); ++p) {
            s->setValue(p);
            if (m_window->readout()->target() == target)
                return true;
        }
        return false;
    }

    const LadderRow* readoutRow(const std::string& hw)
    {
        for (const auto& l : m_window->readout()->model()->readings())
            if (l.hardware == hw)
                return &l.rows.front();
        return nullptr;
    }

private slots:
    void initTestCase() { openWindow("tst_mainwindow"); }

    void sliderAt50ShowsWhatTheCliPrints()
    {
        QVERIFY(slideTo(50));
        QProcess cli;
        cli.start(cliProgram(),
            { QStringLiteral("ladder"), QStringLiteral("--db"), m_db, QStringLiteral("--model"),
                QString::fromStdString(std::string(kBundledModel)), QStringLiteral("--workload"),
                QString::fromStdString(std::string(kBundledWorkload)), QStringLiteral("--targets"),
                QStringLiteral("50"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--baseline"),
                m_window->readout()->baseline() });
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject printed = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QCOMPARE(printed.keys(), QStringList({ QStringLiteral("b300"), QStringLiteral("mi325x") }));
        ReadoutModel* model = m_window->readout()->model();
        QCOMPARE(model->rowCount(), 2);
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString hw = model->index(r, ReadoutModel::Hardware).data().toString().toLower();
            const QJsonObject row = printed[hw].toArray()[0].toObject();
            QCOMPARE(row[QStringLiteral("target")].toDouble(), 50.0);
            QCOMPARE(model->index(r, ReadoutModel::TputPerGpu).data(Qt::UserRole).toDouble(),
                row[QStringLiteral("tput_per_gpu")].toDouble());
            QCOMPARE(model->index(r, ReadoutModel::CostPerMTok).data(Qt::UserRole).toDouble(),
                row[QStringLiteral("cost_per_mtok")].toDouble());
            QCOMPARE(model->index(r, ReadoutModel::Engine).data().toString().toLower(),
                row[QStringLiteral("engine")].toString());
            // the ratio to the baseline: one rule in core for the readout and `ladder --baseline`
            QCOMPARE(model->index(r, ReadoutModel::VsBaseline).data(Qt::UserRole).toDouble(),
                row[QStringLiteral("vs_baseline")].toDouble());
        }
        QCOMPARE(m_window->readout()->baseline(), QStringLiteral("mi325x"));
        // the published figures, as the seed page prints them
        QCOMPARE(model->index(0, ReadoutModel::TputPerGpu).data().toString(), QStringLiteral("328,417"));
        QCOMPARE(model->index(0, ReadoutModel::CostPerMTok).data().toString(), QStringLiteral("$0.002"));
        QCOMPARE(model->index(1, ReadoutModel::TputPerGpu).data().toString(), QStringLiteral("17,745"));
        QCOMPARE(model->index(1, ReadoutModel::CostPerMTok).data().toString(), QStringLiteral("$0.017"));
        QCOMPARE(m_window->readout()->comparison(), QStringLiteral("B300 delivers 18.5x MI325X at 50 tok/s/user"));
        // past MI325X's measured range there is nothing to compare with, and the sentence says so (it was blank)
        m_window->readout()->setTarget(250);
        QCOMPARE(m_window->readout()->comparison(),
            QStringLiteral("No ratios at 250 tok/s/user: MI325X has no reading there (above the measured range)"));
        m_window->readout()->setTarget(50);
    }

    void tierSwitchScalesCostByPriceRatio()
    {
        m_window->readout()->setTarget(50);
        const PricingCatalog& pricing = bundledPricing();
        const PricingTier& first = pricing.tiers.front();
        const double base = readoutRow("b300")->costPerMTok.value();
        for (const PricingTier& t : pricing.tiers) {
            m_window->readout()->setPrice(QString::fromStdString(t.key), 2.0);
            for (const std::string hw : { "b300", "mi325x" }) {
                const LadderRow* row = readoutRow(hw);
                QVERIFY(row);
                if (!t.price(hw)) {
                    QVERIFY(!row->costPerMTok);
                    continue;
                }
                QCOMPARE(QString::fromStdString(row->tier), QString::fromStdString(t.key));
                if (hw == "b300")
                    QVERIFY(near(row->costPerMTok.value() / base, *t.price(hw) / *first.price(hw), kRel));
            }
        }
        // the custom price: $/1M = price / (tok/s/GPU x 3600) x 1e6, worked out here on its own
        m_window->readout()->setPrice(QString(), 3.25);
        const LadderRow* row = readoutRow("mi325x");
        QCOMPARE(QString::fromStdString(row->tier), QStringLiteral("custom"));
        QVERIFY(near(row->costPerMTok.value(), 3.25 / (17745.0 * 3600.0) * 1e6, kRel));
        m_window->readout()->setPrice(QString::fromStdString(first.key), 2.0);
    }

    void legendToggleHidesAndShowsItsGroup()
    {
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart->groupCount() >= 2);
        QListWidgetItem* entry = m_window->chartPanel()->legend()->item(0);
        QVERIFY(entry && !entry->isHidden());
        QCOMPARE(entry->checkState(), Qt::Checked);
        QVERIFY(chart->layer()->content().lines[0].visible);
        entry->setCheckState(Qt::Unchecked); // as a click on its box does
        QVERIFY(!chart->groupVisible(0));
        QVERIFY(!chart->layer()->content().lines[0].visible);
        // its entry stays, unticked, to switch it back on; switched on from the chart, the entry follows
        QVERIFY(!entry->isHidden());
        chart->toggleGroup(0, true);
        QCOMPARE(entry->checkState(), Qt::Checked);
        QVERIFY(chart->layer()->content().lines[0].visible);
    }

    void chartPointsComeWithTheScopeFromTheWorker()
    {
        // a scope read again: the chart's points were worked out on the store worker for the view on screen, and
        // they are what the GUI thread would have worked out
        // from a quiet window: the scope is asked for with the view on screen settled (under ctest -j2 beside
        // clang-tidy, a delivery still under way from the test before answered the spy once)
        QVERIFY(waitQuiet());
        QSignalSpy shown(m_window.get(), &MainWindow::scopeShown);
        emit m_window->filters()->filtersChanged();
        QVERIFY(shown.wait(10000));
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart->pointsGiven());
        // for the view it draws (the plot's size may have moved a few pixels since the scope was asked for)
        QVERIFY(ChartPanel::sameView(
            chart->state().request, m_window->chartPanel()->requestFor(m_window->readout()->price())));
        const ChartData here = chartData(*m_window->scopeData(), bundledPricing(), chart->state().request);
        const ChartData& given = chart->chartData();
        QCOMPARE(given.series.size(), here.series.size());
        for (std::size_t g = 0; g < here.series.size(); ++g) {
            QCOMPARE(given.series[g].frontier.size(), here.series[g].frontier.size());
            QCOMPARE(given.series[g].runs.size(), here.series[g].runs.size());
            for (std::size_t k = 0; k < here.series[g].frontier.size(); ++k) {
                QCOMPARE(given.series[g].frontier[k].x, here.series[g].frontier[k].x);
                QCOMPARE(given.series[g].frontier[k].y, here.series[g].frontier[k].y);
            }
        }
        QCOMPARE(given.xMax, here.xMax);
        QCOMPARE(given.yMax, here.yMax);
        // a view changed before the answer came: the chart works its points out for the view it shows
        auto boxes = m_window->chartPanel()->findChildren<QCheckBox*>();
        QCheckBox* logY = nullptr;
        for (QCheckBox* b : boxes)
            if (b->text() == QStringLiteral("Log y"))
                logY = b;
        QVERIFY(logY);
        logY->toggle();
        QVERIFY(!m_window->chartPanel()->chart()->pointsGiven());
        QVERIFY(m_window->chartPanel()->chart()->chartData().series.size() == here.series.size());
        logY->toggle();
    }

    void aScopesRepaintWaitsATurnAfterItsDelivery()
    {
        // Qt runs the events a delivery posted (among them the scene's update, which sends the window's pending
        // repaint at once) in its very next pass, before the timers and the input of that turn: on a million-run
        // store a scope's delivery and the repaint it caused stood as one. The repaint waits a turn, then the panels
        // are painted; the new chart is built and put in view after them (scopeShown), and painted after that.
        // from a quiet window: a scope the test before asked for (its log-y toggles) landed here as this one was
        // delivered, and its chart's repaint, pending when the paint was held, went with the panels (1 run in 3
        // under ASan beside busy cores)
        QVERIFY(waitQuiet());
        QStringList order;
        QTableView* table = m_window->readout()->findChild<QTableView*>();
        QVERIFY(table);
        PaintWatch watch(order,
            { { table->viewport(), QStringLiteral("readout") },
                { m_window->chartPanel()->view()->viewport(), QStringLiteral("chart") } });
        const FrontierChart* before = m_window->chartPanel()->chart();
        const FrontierChart* chartAtDelivery = nullptr;
        auto delivered = connect(m_window.get(), &MainWindow::scopeDelivered, this, [&] {
            order = QStringList { QStringLiteral("delivered") }; // not the paints of the scope shown before
            chartAtDelivery = m_window->chartPanel()->chart();
            QCoreApplication::sendPostedEvents(); // what the next pass runs: the events the delivery posted
            order << QStringLiteral("next pass");
        });
        auto shown = connect(m_window.get(), &MainWindow::scopeShown, this, [&] { order << QStringLiteral("shown"); });
        QCheckBox* flagged = nullptr;
        for (QCheckBox* b : m_window->filters()->findChildren<QCheckBox*>())
            if (b->text() == QStringLiteral("Drop flagged runs"))
                flagged = b;
        QVERIFY(flagged);
        // the scope read again, its runs the same (the metric Output read none of the bundled), in a chart of its
        // own: the chart in view zoomed cannot take its points
        FrontierChart* chart = m_window->chartPanel()->chart();
        chart->zoomIn(chart->plotArea().adjusted(20, 20, -20, -20));
        QVERIFY(chart->isZoomed());
        flagged->toggle();
        QVERIFY(waitShown());
        QTRY_VERIFY(order.contains(QStringLiteral("chart")));
        disconnect(delivered);
        disconnect(shown);
        QCOMPARE(order.mid(0, 3),
            QStringList({ QStringLiteral("delivered"), QStringLiteral("next pass"), QStringLiteral("readout") }));
        QVERIFY2(order.indexOf(QStringLiteral("shown")) > order.indexOf(QStringLiteral("readout")),
            qPrintable(order.join(QStringLiteral(", "))));
        QVERIFY2(order.indexOf(QStringLiteral("chart")) > order.indexOf(QStringLiteral("shown")),
            qPrintable(order.join(QStringLiteral(", "))));
        QCOMPARE(chartAtDelivery, before); // the chart in view until the panels were painted
        QVERIFY(m_window->chartPanel()->chart() != before);
        QVERIFY(!m_window->chartPanel()->chart()->isZoomed());
        QVERIFY(m_window->chartPanel()->updatesEnabled());
        flagged->toggle();
        QVERIFY(waitShown());
    }

    void aPreparedChartIsTakenOnlyForWhatItWasBuiltFrom()
    {
        // a delivered scope's chart is built a turn before it is put in view: what is put in view is the chart that
        // was built, unless something changed in between (the target, the view, the theme), and then a new one
        QVERIFY(waitQuiet());
        const auto data = m_window->scopeData();
        QVERIFY(data);
        const PriceChoice price = m_window->readout()->price();
        ChartPanel panel(bundledPricing());
        panel.resize(900, 600);
        panel.prepare(data, 50, price, std::nullopt);
        const FrontierChart* built = panel.preparedChart();
        QVERIFY(built);
        panel.setData(data, 50, price);
        QCOMPARE(panel.chart(), built);
        QVERIFY(!panel.preparedChart());
        // the same scope again: the chart in view takes it, nothing is built
        panel.prepare(data, 50, price, std::nullopt);
        QVERIFY(!panel.preparedChart());
        // built, then the state changed (log y): not the one built
        panel.chart()->zoomIn(panel.chart()->plotArea().adjusted(10, 10, -10, -10));
        panel.prepare(data, 50, price, std::nullopt);
        built = panel.preparedChart();
        QVERIFY(built);
        ChartState state = panel.state();
        state.request.logY = !state.request.logY;
        panel.setState(state);
        QVERIFY(panel.chart() != built);
        QVERIFY(!panel.preparedChart());
        QCOMPARE(panel.chart()->state().request.logY, state.request.logY);
        // built for one target, asked for another: a new chart, its marker at the target asked for
        panel.chart()->zoomIn(panel.chart()->plotArea().adjusted(10, 10, -10, -10));
        panel.prepare(data, 50, price, std::nullopt);
        built = panel.preparedChart();
        QVERIFY(built);
        panel.setData(data, 70, price);
        QVERIFY(panel.chart() != built);
        QCOMPARE(panel.chart()->state().target, 70.0);
    }

    void runCloudIsDrawnOffTheGuiThreadWhereQtChartsPlacesIt()
    {
        FrontierChart* chart = m_window->chartPanel()->chart();
        RunCloud* cloud = chart->cloud();
        // on screen: the paint asks a pool thread, and the picture arrives through the event loop
        cloud->invalidate();
        m_window->chartPanel()->view()->viewport()->repaint();
        QVERIFY(!cloud->ready());
        QSignalSpy arrived(cloud, &RunCloud::pictureArrived);
        QVERIFY(arrived.wait(10000));
        QVERIFY(cloud->ready());
        // each point stands where Qt Charts maps its run (the pool thread maps the axes itself)
        std::map<long long, std::pair<QPointF, std::size_t>> runs;
        for (std::size_t g = 0; g < chart->groupCount(); ++g)
            for (const Point& p : chart->chartData().series[g].runs)
                runs[p.runId] = { QPointF(p.x, p.y), g };
        QVERIFY2(cloud->placed().size() >= 5,
            qPrintable(QString::number(cloud->placed().size()) + QStringLiteral(" placed of ")
                + QString::number(runs.size())));
        for (const auto& [pos, id] : cloud->placed()) {
            const auto it = runs.find(id);
            QVERIFY(it != runs.end());
            const QPointF qt = chart->mapToPosition(it->second.first, chart->anchor());
            QVERIFY2(std::abs(qt.x() - pos.x()) < 1e-6 && std::abs(qt.y() - pos.y()) < 1e-6,
                qPrintable(QStringLiteral("run %1 at %2,%3, Qt Charts %4,%5")
                               .arg(id)
                               .arg(pos.x())
                               .arg(pos.y())
                               .arg(qt.x())
                               .arg(qt.y())));
        }
        // an export draws it at once, as the rest of the chart
        cloud->invalidate();
        QImage image(800, 600, QImage::Format_ARGB32);
        QPainter painter(&image);
        chart->scene()->render(&painter);
        painter.end();
        QVERIFY(cloud->ready());
    }

    void hoverFindsTheRunAndDescribesIt()
    {
        // the chart of the scope, once it is in view (under ctest -j2 this test once found a chart of no groups and
        // read series[-1])
        QTRY_VERIFY_WITH_TIMEOUT(
            m_window->chartPanel()->chart() && m_window->chartPanel()->chart()->groupCount() >= 2, 10000);
        FrontierChart* chart = m_window->chartPanel()->chart();
        const std::size_t g = chart->groupCount() - 1; // MI325X vLLM: six knots
        const Point knot = chart->chartData().series[g].frontier.at(2);
        const QPointF at = chart->mapToPosition(QPointF(knot.x, knot.y), chart->anchor());
        QCOMPARE(chart->runAt(at + QPointF(2, -2)), knot.runId);
        QCOMPARE(chart->runAt(at + QPointF(40, 40)), 0LL);
        // Qt's delayed tooltip event over the run shows the run, not the view's hint (which replaced it after a
        // second): at once its id, then its description, read on the store worker; off the runs it shows the hint
        FrontierView* view = m_window->chartPanel()->view();
        QSignalSpy arrived(view, &FrontierView::runTextArrived);
        const QPoint inView = view->mapFromScene(chart->mapToScene(at));
        QHelpEvent over(QEvent::ToolTip, inView, view->viewport()->mapToGlobal(inView));
        QApplication::sendEvent(view->viewport(), &over);
        QVERIFY2(QToolTip::text().contains(QString::number(knot.runId)), qPrintable(QToolTip::text()));
        QVERIFY(arrived.wait(10000));
        QCOMPARE(arrived.at(0).at(0).toLongLong(), knot.runId);
        const QString text = view->hoveredRunText();
        QVERIFY2(text.contains(QString::fromUtf8("MI325X · vLLM · FP4")) && text.contains(QStringLiteral("bundled:")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("13,945 tok/s/GPU")), qPrintable(text));
        QVERIFY2(QToolTip::text().contains(QStringLiteral("13,945 tok/s/GPU")), qPrintable(QToolTip::text()));
        // the same run again: no second read, its description at once
        QApplication::sendEvent(view->viewport(), &over);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("13,945 tok/s/GPU")), qPrintable(QToolTip::text()));
        const QPoint empty = view->mapFromScene(chart->mapToScene(chart->plotArea().topRight() + QPointF(-3, 3)));
        QHelpEvent off(QEvent::ToolTip, empty, view->viewport()->mapToGlobal(empty));
        QApplication::sendEvent(view->viewport(), &off);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("Drag to zoom")), qPrintable(QToolTip::text()));
    }

    void markerReadsWhatTheReadoutShows()
    {
        m_window->readout()->setTarget(75);
        FrontierChart* chart = m_window->chartPanel()->chart();
        QCOMPARE(chart->marker().x(), 75.0);
        std::multiset<double> marked, shown;
        for (const auto& r : chart->marker().readings())
            marked.insert(r.y);
        for (const auto& l : m_window->readout()->model()->readings())
            if (l.rows.front().entry.value)
                shown.insert(*l.rows.front().entry.value);
        // every hardware's best reading is on the marker (other groups covering 75 may be marked as well)
        for (double v : shown)
            QVERIFY2(marked.count(v), qPrintable(QString::number(v)));
        QCOMPARE(shown, std::multiset<double>({ 249248.0, 13945.0 }));
        // the B300 SGLang frontier is its single point at 200 tok/s/user and B300 vLLM ends at 150: at 75 the
        // first is set apart, at 200 the second
        QCOMPARE(chart->outsideRange(), QStringList({ QString::fromUtf8("B300 · SGLang · FP4") }));
        m_window->readout()->setTarget(200);
        QCOMPARE(chart->outsideRange(), QStringList({ QString::fromUtf8("B300 · vLLM · FP4") }));
    }

    void itemModelsPassTheTester()
    {
        m_window->readout()->setTarget(50);
        QAbstractItemModelTester readout(
            m_window->readout()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester ladder(
            m_window->ladder()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_window->ladder()->setTargets({ 30, 50, 100 });
        QCOMPARE(m_window->ladder()->model()->rowCount(), 6);
        m_window->ladder()->setTargets(defaultTargets());
        auto store = RunStore::open(m_db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(store.ok());
        RunsModel runs;
        QAbstractItemModelTester runsTester(&runs, QAbstractItemModelTester::FailureReportingMode::QtTest);
        runs.setRuns((*store)->allRuns());
        QVERIFY(runs.rowCount() >= 11);
        QSortFilterProxyModel* proxy = m_window->runs()->proxy();
        QAbstractItemModelTester proxyTester(proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_window->runs()->setRuns((*store)->allRuns());
        proxy->sort(RunsModel::TputPerGpu, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, RunsModel::TputPerGpu).data().toString(), QStringLiteral("328,417"));
    }

    void screenshotOfTheMainWindow()
    {
        m_window->readout()->setTarget(50);
        m_window->resize(1600, 1000);
        QTest::qWait(50);
        const QImage shot = m_window->grab().toImage();
        QCOMPARE(shot.size(), QSize(1600, 1000));
        const QString path = mainWindowScreenshot();
        QVERIFY2(shot.save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    void sessionDialogRefusesWhatCoreRefuses()
    {
        SessionDialog dialog(QStringLiteral("No GPU found"));
        dialog.setEndpoint(QStringLiteral("ftp://host/v1"), QStringLiteral("b300"), QStringLiteral("vllm"), 8);
        QVERIFY(!dialog.build());
        dialog.setEndpoint(QStringLiteral("http://127.0.0.1:9"), QStringLiteral("b300"), QStringLiteral("vllm"), 8);
        dialog.setConcurrency(QStringLiteral("1,four"));
        QVERIFY(!dialog.build());
        dialog.setConcurrency(QStringLiteral("1,4"));
        QVERIFY(dialog.build());
        QCOMPARE(dialog.request().config.gpus, 8);
        QCOMPARE(dialog.request().config.tp, 8); // core's rule: tp not given is the GPU count
        QCOMPARE(QString::fromStdString(dialog.request().config.endpoint), QStringLiteral("http://127.0.0.1:9"));
        // the CLI makes the same configuration of the same choices (core's buildSession for both)
        dialog.setEndpoint(QStringLiteral("http://127.0.0.1:9/"), QStringLiteral(" B300"), QStringLiteral("vLLM"), 8);
        dialog.setLengths(1024, 1024);
        QVERIFY(dialog.build());
        const SessionConfig& c = dialog.request().config;
        QStringList args { QStringLiteral("bench"), QStringLiteral("--print-config"), QStringLiteral("--endpoint"),
            QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--hardware"), QStringLiteral("b300"),
            QStringLiteral("--engine"), QStringLiteral("vllm"), QStringLiteral("--gpus"), QStringLiteral("8"),
            QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024"),
            QStringLiteral("--concurrency"), QStringLiteral("1,4") };
        if (!c.model.empty()) // the dialog's remembered fields, if any: the same choices for both
            args << QStringLiteral("--model") << QString::fromStdString(c.model);
        args << QStringLiteral("--precision") << QString::fromStdString(c.precision) << QStringLiteral("--workload")
             << QString::fromStdString(c.workload);
        QProcess cli;
        cli.start(cliProgram(), args);
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(cli.readAllStandardOutput().trimmed(), QByteArray::fromStdString(sessionConfigJson(c)));
    }

    // A recipe's session is stored as the recipe's hardware and engine, whatever the endpoint page holds: the dialog
    // says so, naming what was typed there (issue 42: it replaced them without a word), and the request agrees.
    void sessionDialogSaysARecipeSetsHardwareAndEngine()
    {
        SessionDialog dialog(QStringLiteral("No GPU found"));
        dialog.setEndpoint(QStringLiteral("http://127.0.0.1:9"), QStringLiteral("b200"), QStringLiteral("sglang"), 8);
        auto* useRecipe = dialog.findChild<QRadioButton*>(QStringLiteral("useRecipe"));
        auto* recipe = dialog.findChild<QComboBox*>(QStringLiteral("recipe"));
        QVERIFY(useRecipe && recipe);
        useRecipe->setChecked(true);
        recipe->setCurrentText(QStringLiteral("engine-sim-mi325x"));
        const QString note = dialog.identityNote();
        QVERIFY2(
            note.contains(QStringLiteral("hardware mi325x-sim, engine engine-sim (the recipe's)")), qPrintable(note));
        QVERIFY2(
            note.contains(QStringLiteral("hardware b200 and engine sglang typed for a running endpoint is not used")),
            qPrintable(note));
        auto* shown = dialog.findChild<QLabel*>(QStringLiteral("identityNote"));
        QVERIFY(shown);
        QCOMPARE(shown->text(), note);
        dialog.setConcurrency(QStringLiteral("1,4"));
        QVERIFY(dialog.build());
        QCOMPARE(QString::fromStdString(dialog.request().config.hardware), QStringLiteral("mi325x-sim"));
        QCOMPARE(QString::fromStdString(dialog.request().config.engine), QStringLiteral("engine-sim"));
        // the endpoint page's own first entries are nobody's choice: not mentioned
        dialog.setEndpoint(QStringLiteral("http://127.0.0.1:9"), QStringLiteral("b300"), QStringLiteral("vllm"), 8);
        useRecipe->setChecked(true);
        QVERIFY2(!dialog.identityNote().contains(QStringLiteral("not used")), qPrintable(dialog.identityNote()));
    }

    void liveSessionLevelsLandOnTheChart()
    {
        // last: it moves the window to the session's scope
        testsupport::SimProcess sim({ QStringLiteral("--profile"), QStringLiteral("b300-sim") });
        QVERIFY(sim.ok());
        SessionDialog dialog { QString() };
        dialog.setEndpoint(sim.url(), QStringLiteral("b300"), QStringLiteral("vllm"), 8);
        dialog.setConcurrency(QStringLiteral("1,8,32,128"));
        dialog.setLengths(512, 48);
        QVERIFY(dialog.build());
        QSignalSpy levels(&m_window->sessions(), &SessionController::levelStored);
        QSignalSpy finished(m_window.get(), &MainWindow::sessionFinished);
        // "Sessions in this store" lists the session while it runs (it was empty until the session ended)
        auto* stored = m_window->sessionPanel()->findChild<QListWidget*>();
        QVERIFY(stored);
        bool listedRunning = false;
        connect(stored->model(), &QAbstractItemModel::rowsInserted, this, [&] {
            for (int r = 0; r < stored->count(); ++r)
                listedRunning = listedRunning || stored->item(r)->text().contains(QStringLiteral(" · running · "));
        });
        m_window->startSession(dialog.request());
        QVERIFY(finished.wait(120000));
        QVERIFY(listedRunning);
        disconnect(stored->model(), nullptr, this, nullptr);
        QCOMPARE(finished.front().front().toString(), QStringLiteral("finished"));
        QCOMPARE(levels.size(), 4);
        QCOMPARE(m_window->sessionPanel()->storedLevels(), 4);
        // the chart is on the session's scope with its four points, labelled a simulation
        for (int i = 0; i < 5 && (!m_window->scopeData() || m_window->scopeData()->runCount < 4); ++i)
            waitShown();
        auto data = m_window->scopeData();
        QCOMPARE(QString::fromStdString(data->scope.model), QStringLiteral("sim-model"));
        QCOMPARE(int(data->runCount), 4);
        QCOMPARE(int(data->frontiers.size()), 1);
        QCOMPARE(QString::fromStdString(data->frontiers.front().key.hardware), QStringLiteral("b300-sim"));
        QString legend = m_window->chartPanel()->chart()->groupName(0);
        QVERIFY2(legend.contains(QStringLiteral("simulated")), qPrintable(legend));
        // a bigger batch: more tok/s/GPU, fewer tok/s/user (the emulator's frontier is a real trade-off)
        const auto& f = data->frontiers.front().points;
        QVERIFY(f.size() >= 3);
        m_window->resize(1600, 1000);
        QTest::qWait(50);
        const QImage shot = m_window->grab().toImage();
        QString path = QFileInfo(mainWindowScreenshot()).dir().filePath(QStringLiteral("session-1600x1000.png"));
        QVERIFY(shot.save(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    void cleanupTestCase() { m_window.reset(); }
};

PARETOSCOPE_SUITE(TestMainWindow)
#include "tests/support/testpaths.h"
#include "tst_mainwindow.moc"
