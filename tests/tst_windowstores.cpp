// The main window over stores of its own (offscreen): runs on three dates, stepped through by the as-of slider and
// Play, the Runs tab listing what the frontiers are built from and repeated runs drawn as bands; and a damaged store,
// whose message shows in place of a chart.
#include <QtTest>

#include <QLabel>
#include <QSlider>
#include <set>

#include "core/analysis/numberformat.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "tests/support/agggenerator.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestWindowStores : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { isolateSettings(m_dir, "tst_windowstores"); }

    // Runs on three dates: the as-of slider and Play step through them, each step built from the runs in memory (no
    // store round trip: the scope is shown before the step returns) and equal to what the store gives as of that day.
    void asOfSliderAndPlayStepThroughRunDates()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("dated.sqlite"));
        {
            auto store = openStore(db.toStdString(), true);
            QVERIFY(store.ok());
            const QString gen = dir.filePath(QStringLiteral("gen.json"));
            QVERIFY(testsupport::writeAggArray(gen.toStdString(), std::uint64_t { 11520 } * 3, 5, 3) > 0);
            QVERIFY(importPath(**store, gen.toStdString(), {})[0].result.ok());
        }
        auto store = openStore(db.toStdString(), false);
        QVERIFY(store.ok());
        MainWindow window(std::move(*store));
        window.setShowImportResults(false);
        QSignalSpy shown(&window, &MainWindow::scopeShown);
        window.show();
        QVERIFY(shown.wait(20000));
        // the new store has the bundled dataset too: the synthetic history's scope
        shown.clear();
        QVERIFY(window.filters()->selectScope(
            QStringLiteral("synthetic/model-0"), QStringLiteral("random 1k/1k"), 1024, 1024));
        for (int i = 0; i < 5 && window.scopeData()->scope.model != "synthetic/model-0"; ++i)
            QVERIFY(shown.wait(20000));
        RunDatesControl* dates = window.filters()->runDates();
        QCOMPARE(dates->days(), (std::vector<int> { 20260101, 20260102, 20260103 }));
        QCOMPARE(dates->asOf(), std::string()); // the latest day: no bound
        auto reader = openStore(db.toStdString(), false);
        QVERIFY(reader.ok());
        for (int i : { 0, 1, 2, 0 }) {
            shown.clear();
            dates->slider()->setValue(i);
            QCOMPARE(shown.count(), 1); // shown before setValue returned: no store round trip
            const Scope scope = window.scopeData()->scope;
            QCOMPARE(scope.asOf, i == 2 ? std::string() : dayText(dates->days()[std::size_t(i)]));
            const ScopeData read = loadScopeData(**reader, scope, window.scopeData()->metric);
            QCOMPARE(window.scopeData()->runCount, read.runCount);
            QCOMPARE(window.scopeData()->frontiers.size(), read.frontiers.size());
            for (std::size_t g = 0; g < read.frontiers.size(); ++g) {
                QCOMPARE(window.scopeData()->frontiers[g].points.size(), read.frontiers[g].points.size());
                for (std::size_t k = 0; k < read.frontiers[g].points.size(); ++k)
                    QCOMPARE(window.scopeData()->frontiers[g].points[k].runId, read.frontiers[g].points[k].runId);
            }
        }
        // the Runs tab lists the runs the frontiers are built from: the latest per configuration as of the day
        {
            QSignalSpy page(window.runs()->model(), &RunsModel::pageLoaded);
            window.findChild<QTabWidget*>()->setCurrentWidget(window.runs());
            QVERIFY(page.wait(20000));
            QCOMPARE(window.runs()->model()->total(), static_cast<long long>(window.scopeData()->runCount));
            std::set<long long> listed, selected;
            for (const StoredRun& r : window.runs()->model()->runs())
                listed.insert(r.id);
            for (long long id : window.scopeData()->selectedRunIds())
                selected.insert(id);
            QVERIFY(!listed.empty());
            for (long long id : listed)
                QVERIFY(selected.count(id));
            window.findChild<QTabWidget*>()->setCurrentIndex(0);
        }
        // Play from the first day: a step a tick, and it stops on the last day
        dates->play(true);
        QVERIFY(dates->playing());
        dates->step();
        QCOMPARE(dates->slider()->value(), 1);
        dates->step();
        QCOMPARE(dates->slider()->value(), 2);
        QVERIFY(!dates->playing());
        QCOMPARE(window.scopeData()->scope.asOf, std::string());
        // played from the last day, it starts again from the first
        dates->play(true);
        QCOMPARE(dates->slider()->value(), 0);
        dates->play(false);
        QVERIFY(!dates->playing());
        // every run as of the last day: each configuration measured three times, each group's reading has a spread,
        // drawn as a band between its low and high frontiers
        dates->setAsOf({});
        shown.clear();
        dates->setRuns(RunSelection::All);
        QVERIFY(shown.wait(20000));
        QCOMPARE(window.scopeData()->scope.runs, RunSelection::All);
        FrontierChart* chart = window.chartPanel()->chart();
        int bands = 0;
        for (std::size_t g = 0; g < chart->groupCount(); ++g) {
            const GroupFrontier& f = window.scopeData()->frontiers[g];
            const FrontierLayer::Band& band = chart->layer()->content().bands[g];
            QCOMPARE(!band.high.empty(), f.hasSpread());
            if (band.high.empty())
                continue;
            ++bands;
            // the band's edges are the high and low frontiers as drawn: through each knot, the curve between
            for (const auto& [edge, curve] : { std::pair(&band.high, &f.high), std::pair(&band.low, &f.low) }) {
                for (const Point& k : curve->knots())
                    QVERIFY(std::any_of(
                        edge->begin(), edge->end(), [&](const Point& p) { return p.x == k.x && p.y == k.y; }));
                for (const Point& p : *edge)
                    QCOMPARE(p.y, *curve->at(p.x));
            }
            // the band goes with its group when the group is switched off
            chart->toggleGroup(g, false);
            QVERIFY(!chart->layer()->content().bands[g].visible);
            chart->toggleGroup(g, true);
        }
        QVERIFY(bands > 0);
        // the readout says the spread beside each frontier reading that has one, as the CLI's table writes it (the
        // spread of reruns is the frontier's)
        window.readout()->setReading(Reading::Frontier);
        ReadoutModel* readout = window.readout()->model();
        int spreads = 0;
        for (int row = 0; row < readout->rowCount(); ++row) {
            const LadderRow& r = readout->readings()[std::size_t(row)].rows.front();
            const QString text = readout->index(row, ReadoutModel::TputPerGpu).data().toString();
            if (!r.entry.value || !r.entry.low || !r.entry.high)
                continue;
            ++spreads;
            QCOMPARE(text.section(QStringLiteral(" (sparse)"), 0, 0),
                QString::fromStdString(withThousands(*r.entry.value) + " [" + withThousands(*r.entry.low) + " - "
                    + withThousands(*r.entry.high) + "]"));
        }
        QVERIFY(spreads > 0);
        dates->setRuns(RunSelection::Latest);
    }

    // A damaged store: the explorer shows what happened in place of the chart, never a chart of what could be read.
    void aDamagedStoreShowsItsMessageNotAChart()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("damaged.sqlite"));
        {
            auto store = openStore(db.toStdString(), true);
            QVERIFY(store.ok());
            const QString gen = dir.filePath(QStringLiteral("gen.json"));
            QVERIFY(testsupport::writeAggArray(gen.toStdString(), 5000, 3) > 0);
            QVERIFY(importPath(**store, gen.toStdString(), {})[0].result.ok());
        }
        {
            QFile f(db);
            QVERIFY(f.open(QIODevice::ReadWrite));
            // past the schema's pages (the first 18 of 4 KB at schema 10: the tables' roots and sqlite_master's
            // leaves), into the runs: the store opens, and its reads fail
            QVERIFY(f.seek(128 << 10));
            f.write(QByteArray(512 << 10, '\x5a'));
        }
        auto store = RunStore::open(db.toStdString());
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().c_str());
        MainWindow window(std::move(*store));
        window.resize(1366, 768);
        QSignalSpy shown(&window, &MainWindow::scopeShown);
        window.show();
        QVERIFY(shown.count() > 0 || shown.wait(10000));
        QVERIFY(!window.scopeData());
        QLabel* problem = nullptr;
        for (QLabel* l : window.chartPanel()->findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains(QStringLiteral("the store is damaged")))
                problem = l;
        QVERIFY2(problem, "the message shows over the chart");
        QVERIFY(problem->text().contains(QStringLiteral("paretoscope-cli check --db")));
        const FrontierChart* chart = window.chartPanel()->chart();
        QVERIFY(!chart || chart->chartData().runsDrawn == 0); // no chart, or an empty one
        const QImage shot = window.grab().toImage();
        QVERIFY(shot.save(QFileInfo(mainWindowScreenshot()).dir().filePath(QStringLiteral("damaged-1366x768.png"))));
    }
};

PARETOSCOPE_SUITE(TestWindowStores)
#include "tests/support/testpaths.h"
#include "tst_windowstores.moc"
