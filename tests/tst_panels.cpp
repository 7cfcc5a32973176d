// The panels as a person sees them: the ladder's columns fit their cells after every change of the ladder, whether
// its tab is in front or not, and a window resize neither measures them again nor undoes a width the person set by
// hand; a run deleted within the plot changes the chart's points in place, as a new chart would have drawn them.
#include <QtTest>

#include <QAreaSeries>
#include <QHeaderView>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "tests/support/testutil.h"
#include "widgets/chartpanel.h"
#include "widgets/frontierchart.h"
#include "widgets/ladderpanel.h"
#include "widgets/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestPanels : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    QTableView* ladderTable() const { return m_window->ladder()->findChild<QTableView*>(); }

    // What resizeColumnsToContents gives each column, measured independently of the panel's own fitting.
    static std::vector<int> contentWidths(const QTableView* table)
    {
        std::vector<int> widths;
        const QAbstractItemView* view = table; // sizeHintForColumn is public in the base
        for (int c = 0; c < table->model()->columnCount(); ++c)
            widths.push_back(std::max(view->sizeHintForColumn(c), table->horizontalHeader()->sectionSizeHint(c)));
        return widths;
    }

    static std::vector<int> shownWidths(const QTableView* table)
    {
        std::vector<int> widths;
        for (int c = 0; c < table->model()->columnCount(); ++c)
            widths.push_back(table->columnWidth(c));
        return widths;
    }

    void showLadder() { m_window->tabs()->setCurrentWidget(m_window->ladder()); }

    // The chart as painted, once its run cloud (drawn off the GUI thread) is in; a null image if it never came.
    QImage grabPlot()
    {
        FrontierView* view = m_window->chartPanel()->view();
        view->grab();
        if (!QTest::qWaitFor([&] { return m_window->chartPanel()->chart()->cloud()->ready(); }, 10000))
            return {};
        return view->grab().toImage();
    }

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
        QCoreApplication::setOrganizationName("ParetoscopeTest");
        QCoreApplication::setApplicationName("tst_panels");
        const QString db = m_dir.filePath("store.sqlite");
        auto store = openStore(db.toStdString(), true);
        QVERIFY(store.ok());
        QVERIFY(importPath(**store, fixture("inferencex-app-api/benchmarks.json").toStdString(), {})[0].result.ok());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->resize(1366, 768);
        m_window->show();
        QSignalSpy shown(m_window.get(), &MainWindow::scopeShown);
        QVERIFY(shown.wait(10000));
    }

    void ladderColumnsFitTheirCells()
    {
        showLadder();
        QTableView* table = ladderTable();
        QVERIFY(table);
        QVERIFY(table->model()->rowCount() > 0);
        QTRY_VERIFY(shownWidths(table) == contentWidths(table));
        // targets written longer than the column's header widen it, on the next turn
        const int before = table->columnWidth(LadderModel::Target);
        m_window->ladder()->setTargets({ 0.000123456, 123456789 });
        QTRY_VERIFY(shownWidths(table) == contentWidths(table));
        QVERIFY(table->columnWidth(LadderModel::Target) > before);
        m_window->ladder()->setTargets(defaultTargets());
        QTRY_VERIFY(shownWidths(table) == contentWidths(table));
    }

    void aChangeBehindAnotherTabFitsWhenShown()
    {
        m_window->tabs()->setCurrentIndex(m_window->tabs()->indexOf(m_window->ladder()) == 0 ? 1 : 0);
        QTableView* table = ladderTable();
        QTRY_VERIFY(!table->isVisible());
        m_window->ladder()->setTargets({ 0.000123456, 123456789 });
        QTest::qWait(20);
        showLadder();
        QTRY_VERIFY(table->isVisible());
        QCOMPARE(shownWidths(table), contentWidths(table));
        m_window->ladder()->setTargets(defaultTargets());
        QTRY_VERIFY(shownWidths(table) == contentWidths(table));
    }

    void aResizeKeepsTheWidths()
    {
        showLadder();
        QTableView* table = ladderTable();
        QTRY_VERIFY(shownWidths(table) == contentWidths(table));
        // a width set by hand (a drag on the header's edge) stays through a window resize
        table->horizontalHeader()->resizeSection(0, table->columnWidth(0) + 40);
        const std::vector<int> set = shownWidths(table);
        m_window->resize(1920, 1080);
        QTest::qWait(30);
        m_window->resize(1366, 768);
        QTest::qWait(30);
        QCOMPARE(shownWidths(table), set);
    }

    void aRunDeletedWithinThePlotChangesTheChartInPlace()
    {
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart);
        const ChartData before = chart->chartData();
        // a run of the cloud strictly inside the bounds: without it the plot keeps its groups and bounds (its
        // group's line may lose a knot)
        // a knot inside a line: the line changes, not its bounding box
        auto inside = [&](const Point& p) {
            return p.x > before.xMin && p.x < before.xMax && p.y > before.yMin && p.y < before.yMax;
        };
        long long id = 0;
        for (const ChartSeries& s : before.series)
            for (std::size_t k = 1; k + 1 < s.frontier.size(); ++k)
                if (!id && inside(s.frontier[k]))
                    id = s.frontier[k].runId;
        QVERIFY(id != 0);
        // the lines' paint cached, as after a slider step
        chart->cacheStillItems();
        QVERIFY(!grabPlot().isNull());
        QSignalSpy shown(m_window.get(), &MainWindow::scopeShown);
        emit m_window->runs()->deleteRequested({ id });
        QVERIFY(shown.wait(10000));
        QCOMPARE(m_window->chartPanel()->chart(), chart); // the same chart
        // on screen as a chart built afresh from the same scope draws it (a cached line showed its deleted knot)
        const QImage inPlace = grabPlot();
        QVERIFY(!inPlace.isNull());
        m_window->chartPanel()->setState(m_window->chartPanel()->state());
        QVERIFY(m_window->chartPanel()->chart() != chart);
        chart = m_window->chartPanel()->chart();
        const QImage rebuilt = grabPlot();
        QCOMPARE(rebuilt.size(), inPlace.size());
        // a stale line differs in some 800 pixels; the two charts' axis labels may differ in a few
        int differ = 0;
        for (int y = 0; y < rebuilt.height(); ++y)
            for (int x = 0; x < rebuilt.width(); ++x)
                differ += rebuilt.pixel(x, y) != inPlace.pixel(x, y);
        QVERIFY2(differ <= 16, qPrintable(QStringLiteral("%1 pixels differ").arg(differ)));
        // its points are those the scope gives now, worked out here independently of the window
        const ChartData now = chartData(*m_window->scopeData(), bundledPricing(), chart->state().request);
        QVERIFY(!(now == before));
        QVERIFY(now == chart->chartData());
        for (std::size_t g = 0; g < now.series.size(); ++g) {
            const QList<QPointF> drawn = chart->line(g)->points();
            QCOMPARE(drawn.size(), qsizetype(now.series[g].frontier.size()));
            for (qsizetype k = 0; k < drawn.size(); ++k)
                QCOMPARE(drawn[k],
                    QPointF(now.series[g].frontier[std::size_t(k)].x, now.series[g].frontier[std::size_t(k)].y));
            if (chart->band(g))
                QCOMPARE(chart->band(g)->upperSeries()->count(), qsizetype(now.series[g].high.size()));
            for (const Point& p : now.series[g].runs)
                QVERIFY(p.runId != id);
        }
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
