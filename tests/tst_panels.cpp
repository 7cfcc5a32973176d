// The panels below the chart as a person sees them: the ladder's columns fit their cells after every change of the
// ladder, whether its tab is in front or not, and a window resize neither measures them again nor undoes a width the
// person set by hand.
#include <QtTest>

#include <QHeaderView>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "tests/support/testutil.h"
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

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
