// The room each page gives to what is read, measured on the InferenceX fixture at the two screens a planner uses
// (1920x1080 and 1366x768, offscreen): the frontier plot large, the readout's nine hardware in view without
// scrolling, the Plan page's every column and a chart tall enough to read; the filter sidebar folded away and back.
#include <QtTest>

#include <QChart>
#include <QHeaderView>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/plan/planchart.h"
#include "widgets/plan/planpanel.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestLayout : public ExplorerFixture {
    Q_OBJECT

    // A window on the fixture's store at a size, with no saved layout (as a first start on that screen), showing
    // DeepSeek-R1 8k/1k in FP4 and FP8 (nine hardware).
    bool reopenAt(QSize size)
    {
        if (!restartWindow(size, [] { QSettings().clear(); }) || !show(QStringLiteral("dsr1"), 8192, 1024))
            return false;
        // both precisions (a view opens on one by default): FP8 brings the four hardware measured in FP8 only
        if (QListWidgetItem* fp8 = filterItem(QStringLiteral("FP8")); fp8 && fp8->checkState() != Qt::Checked) {
            fp8->setCheckState(Qt::Checked);
            if (!waitShown())
                return false;
        }
        QTest::qWait(50); // the layout settles around the readings
        return m_window->size() == size;
    }

    QSizeF plotSize() const { return m_window->chartPanel()->chart()->plotArea().size(); }

    QString describe() const
    {
        const QSizeF plot = plotSize();
        return QStringLiteral("plot %1x%2, chart panel %3x%4, readout %5x%6, filters %7")
            .arg(plot.width())
            .arg(plot.height())
            .arg(m_window->chartPanel()->width())
            .arg(m_window->chartPanel()->height())
            .arg(m_window->readout()->width())
            .arg(m_window->readout()->height())
            .arg(m_window->filtersShown() ? QStringLiteral("shown") : QStringLiteral("folded"));
    }

    // The readout's table holds every hardware of the scope (nine here) with nothing to scroll to.
    void verifyReadoutWhole()
    {
        auto* table = m_window->readout()->findChild<QTableView*>();
        QVERIFY(table);
        QString rows;
        for (int r = 0; r < table->model()->rowCount(); ++r)
            rows += table->model()->index(r, 0).data().toString() + QLatin1Char(' ');
        const Scope scope = m_window->filters()->scope();
        for (const auto& list : { scope.hardware, scope.engines, scope.precisions, scope.specDecoding })
            rows += QStringLiteral("| %1 ").arg(list.size());
        if (scope.ttftMax)
            rows += QStringLiteral("ttft %1").arg(*scope.ttftMax);
        if (scope.tpotMax)
            rows += QStringLiteral("tpot %1").arg(*scope.tpotMax);
        rows += QString::fromStdString(" " + scope.dateFrom + " " + scope.dateTo);
        QVERIFY2(table->model()->rowCount() == 9, qPrintable(rows + QString::number(m_window->readout()->target())));
        QVERIFY2(table->verticalScrollBar()->maximum() == 0,
            qPrintable(QStringLiteral("%1 rows scroll in a %2 px viewport; %3")
                           .arg(table->model()->rowCount())
                           .arg(table->viewport()->height())
                           .arg(describe())));
        QVERIFY2(table->horizontalScrollBar()->maximum() == 0, qPrintable(describe()));
    }

    static QString columnWidths(const QTableView* table)
    {
        QStringList out;
        for (int c = 0; c < table->model()->columnCount(); ++c)
            if (!table->isColumnHidden(c))
                out << table->model()->headerData(c, Qt::Horizontal).toString().replace(u'\n', u' ') + u' '
                        + QString::number(table->columnWidth(c));
        return out.join(QStringLiteral(", "));
    }

    // The Plan page in front, its plan shown.
    PlanPanel* showPlan()
    {
        PlanPanel* plan = m_window->plan();
        QSignalSpy shown(plan, &PlanPanel::planShown);
        m_window->showPanel(plan);
        if (shown.isEmpty())
            shown.wait(10000);
        QTest::qWait(50);
        return plan;
    }

private slots:
    void initTestCase() { openExplorer("tst_layout"); }

    // 1920x1080: the sidebar shown, the plot at least 1100x620 (it was about 550x410 under a strip of tabs beside a
    // readout of 500 px of white), the readout whole, the Plan page's columns all in view.
    void aWideScreenGivesThePlotTheRoom()
    {
        QVERIFY(reopenAt(QSize(1920, 1080)));
        QVERIFY(m_window->filtersShown());
        QCOMPARE(m_window->tabs()->currentIndex(), 0); // Explore
        const QSizeF plot = plotSize();
        QVERIFY2(plot.width() >= 1100 && plot.height() >= 620, qPrintable(describe()));
        qInfo("1920x1080: %s", qPrintable(describe()));
        verifyReadoutWhole();
        // the ladder shares the readout's column, below it, with room for rows
        QVERIFY2(m_window->ladder()->height() >= 300, qPrintable(QString::number(m_window->ladder()->height())));

        PlanPanel* plan = showPlan();
        QTableView* table = plan->table();
        QVERIFY(table->model()->rowCount() >= 9);
        QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
            qPrintable(QStringLiteral("the columns take %1 px of %2: %3")
                           .arg(table->horizontalHeader()->length())
                           .arg(table->viewport()->width())
                           .arg(columnWidths(table))));
        QVERIFY2(table->verticalScrollBar()->maximum() == 0, "every hardware's row in view");
        QVERIFY2(plan->chart()->height() >= 420, qPrintable(QString::number(plan->chart()->height())));
        qInfo("1920x1080: the Plan page's columns take %d of %d px, its chart %dx%d",
            table->horizontalHeader()->length(), table->viewport()->width(), plan->chart()->width(),
            plan->chart()->height());
    }

    // 1366x768: the sidebar folded away on a first start (its button before the pages), the plot at least 680x400,
    // the readout whole, the Plan page's chart at least 320 px tall.
    void aLaptopScreenGivesThePlotTheRoom()
    {
        QVERIFY(reopenAt(QSize(1366, 768)));
        QVERIFY(!m_window->filtersShown());
        const QSizeF plot = plotSize();
        QVERIFY2(plot.width() >= 680 && plot.height() >= 400, qPrintable(describe()));
        qInfo("1366x768: %s", qPrintable(describe()));
        verifyReadoutWhole();
        QVERIFY2(m_window->ladder()->height() >= 120, qPrintable(QString::number(m_window->ladder()->height())));

        PlanPanel* plan = showPlan();
        QVERIFY2(plan->chart()->height() >= 320, qPrintable(QString::number(plan->chart()->height())));
        qInfo("1366x768: the Plan page's chart %dx%d", plan->chart()->width(), plan->chart()->height());
        QVERIFY(plan->table()->verticalScrollBar()->maximum() == 0);
        m_window->showPage(QStringLiteral("ladder"));
    }

    // The sidebar folds away and comes back at its width, the chart taking and giving the room; the choice is kept.
    void theSidebarFoldsAndIsKept()
    {
        QVERIFY(reopenAt(QSize(1366, 768)));
        const qreal folded = plotSize().width();
        m_window->setFiltersShown(true);
        QTest::qWait(50);
        QVERIFY(m_window->filtersShown());
        QVERIFY(m_window->filters()->isVisible());
        const qreal shown = plotSize().width();
        qInfo("1366x768, the sidebar shown: %s", qPrintable(describe()));
        QVERIFY2(shown < folded - 120, qPrintable(QStringLiteral("%1 -> %2").arg(folded).arg(shown)));
        // with the sidebar shown the readout still has its nine hardware whole (the chart gave the room)
        verifyReadoutWhole();
        // and the sidebar keeps a readable width: the chart's boxes give way first (on the real InferenceX data, with
        // its accuracy column, the readout is some 560 px and the sidebar was pressed to 110 px by the chart's 684)
        QVERIFY2(m_window->filters()->parentWidget()->width() >= 150,
            qPrintable(QString::number(m_window->filters()->parentWidget()->width())));
        QVERIFY2(m_window->chartPanel()->minimumWidth() + 560 + 180 <= 1366,
            qPrintable(QString::number(m_window->chartPanel()->minimumWidth())));
        QVERIFY(restartWindow()); // closing saves the layout
        QVERIFY(m_window->filtersShown());
        m_window->setFiltersShown(false);
        QTest::qWait(50);
        QVERIFY(!m_window->filtersShown());
        QVERIFY(m_window->filters()->visibleRegion().isEmpty());
    }

    // A window that starts on the Plan page (the page in front when it closed) and is then turned to Explore fits a
    // 1366x768 screen and gives the plot its room: the readout's sentence was wrapped at the width of a panel never
    // shown, and the window's minimum grew to 784 px tall, the chart to half its height over a blank strip. The
    // baseline chosen, "(none)" included, comes back with the window.
    void aWindowStartedOnAnotherPageFitsWhenExploreIsShown()
    {
        QVERIFY(reopenAt(QSize(1366, 768)));
        const QSizeF before = plotSize();
        m_window->readout()->setBaseline(QString()); // "(none)"
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        QVERIFY(restartWindow()); // closing saves the page in front, the layout and the baseline
        QVERIFY(m_window->currentPanel() == m_window->plan());
        QVERIFY(m_window->showPage(QStringLiteral("ladder")));
        QTest::qWait(100);
        QVERIFY2(m_window->minimumSizeHint().height() <= 768 && m_window->minimumHeight() <= 768,
            qPrintable(QStringLiteral("minimum %1 x %2")
                           .arg(m_window->minimumSizeHint().width())
                           .arg(m_window->minimumSizeHint().height())));
        QCOMPARE(m_window->height(), 768);
        const QSizeF after = plotSize();
        qInfo("1366x768 after starting on Plan: %s", qPrintable(describe()));
        QVERIFY2(after.height() >= 400 && after.height() >= before.height() - 30,
            qPrintable(QStringLiteral("plot %1 tall, %2 before").arg(after.height()).arg(before.height())));
        auto* table = m_window->readout()->findChild<QTableView*>();
        QVERIFY(table && table->model()->rowCount() >= 5);
        QCOMPARE(table->verticalScrollBar()->maximum(), 0); // every hardware in view
        QCOMPARE(m_window->readout()->baseline(), QString());
        QVERIFY(m_window->readout()->baselineChosen());
    }

    // A page of the Explore tabs comes to the front with Explore, and the window says which page is in front.
    void pagesUnderTheReadoutComeToTheFrontWithExplore()
    {
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        QVERIFY(m_window->currentPanel() == m_window->plan());
        QVERIFY(m_window->showPage(QStringLiteral("summary")));
        QCOMPARE(m_window->tabs()->currentIndex(), 0);
        QVERIFY(m_window->currentPanel() == m_window->summary());
        QVERIFY(m_window->chartPanel()->isVisible());
        QVERIFY(m_window->showPanel(m_window->ladder()));
        QVERIFY(m_window->currentPanel() == m_window->ladder());
    }
};

PARETOSCOPE_SUITE(TestLayout)
#include "tst_layout.moc"
