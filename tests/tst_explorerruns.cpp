// Which runs the explorer shows, as a planner meets it on the bundled dataset and the InferenceX fixture (offscreen):
// filters kept per scope and said when they hide everything, the Runs tab's word filter and its count, a bench sweep
// imported from a folder with one question, and runs another process writes into the store.
#include <QtTest>

#include <QCheckBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>

#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/output/reports.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "tests/support/sweeprecords.h"
#include "tests/support/testutil.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/imports/importdialogs.h"
#include "widgets/plan/planpanel.h"
#include "widgets/readout/laddermodel.h"
#include "widgets/readout/ladderpanel.h"
#include "widgets/readout/readoutmodel.h"
#include "widgets/runs/runspanel.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestExplorerRuns : public ExplorerFixture {
    Q_OBJECT
private slots:
    void initTestCase() { openExplorer("tst_explorerruns"); }

    // Filters belong to their scope: switching FP8 off for DeepSeek-R1 leaves an FP8-only model whole.
    void filtersAreKeptPerScope()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        QListWidgetItem* fp8 = filterItem(QStringLiteral("FP8"));
        QVERIFY(fp8);
        if (fp8->checkState() == Qt::Checked) { // unchecked by default (one precision per view), or by hand here
            fp8->setCheckState(Qt::Unchecked);
            QVERIFY(waitShown());
        }
        QVERIFY(show(QStringLiteral("fp8-only-model"), 1024, 1024));
        QCOMPARE(int(m_window->scopeData()->runCount), 3);
        QCOMPARE(filterItem(QStringLiteral("FP8"))->checkState(), Qt::Checked);
        // and back: DeepSeek-R1 still has FP8 off
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        QCOMPARE(filterItem(QStringLiteral("FP8"))->checkState(), Qt::Unchecked);
        const QVariantMap kept = m_window->filters()->uncheckedByScope();
        QCOMPARE(kept.size(), 1);
        QVERIFY(kept.first().toStringList().contains(QStringLiteral("precision:fp8")));
    }

    // A scope chosen while the one on screen is being read again: the answer for the old scope is not shown in
    // between (the worker answers in order, so without the cancel the old scope is shown first, every time).
    void aScopeChosenWhileAnotherIsReadIsTheOnlyOneShown()
    {
        QVERIFY(show(QStringLiteral("fp8-only-model"), 1024, 1024));
        QStringList shown;
        const auto record = connect(m_window.get(), &MainWindow::scopeShown, this,
            [&] { shown << QString::fromStdString(m_window->scopeData()->scope.model); });
        emit m_window->filters()->filtersChanged(); // fp8-only-model asked for again
        QVERIFY(m_window->filters()->selectScope(QStringLiteral("dsr1"), {}, 1024, 1024));
        QVERIFY(waitShown());
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->storeWorker().busy(), 10000);
        disconnect(record);
        QCOMPARE(shown, QStringList({ QStringLiteral("dsr1") }));
    }

    // Every hardware unchecked: the scope says it matches nothing (Scope::matchesNothing, no sentinel value in its
    // lists), and the readout reads no hardware (computeLadder read a ladder for a sentinel in the hardware list).
    void everyHardwareUncheckedMatchesNothing()
    {
        QVERIFY(show(QStringLiteral("fp8-only-model"), 1024, 1024));
        QListWidgetItem* h200 = filterItem(QStringLiteral("H200")); // the model's only hardware
        QVERIFY(h200);
        QVERIFY(m_window->readout()->model()->rowCount() > 0);
        h200->setCheckState(Qt::Unchecked);
        const Scope none = m_window->filters()->scope();
        QVERIFY(none.matchesNothing);
        QVERIFY(none.hardware.empty());
        for (int i = 0; i < 10 && m_window->readout()->model()->rowCount() > 0; ++i)
            waitShown();
        QCOMPARE(m_window->readout()->model()->rowCount(), 0);
        filterItem(QStringLiteral("H200"))->setCheckState(Qt::Checked);
        QVERIFY(!m_window->filters()->scope().matchesNothing);
        for (int i = 0; i < 10 && m_window->readout()->model()->rowCount() == 0; ++i)
            waitShown();
        QVERIFY(m_window->readout()->model()->rowCount() > 0);
    }

    // One hardware unticked: the readout and the ladder read the hardware they read before but that one, and no row
    // says "no runs" for a hardware whose runs another filter hides (FP8 only, with FP4 chosen): they came in as
    // soon as the filter named the hardware ticked.
    void aHardwareUntickedLeavesTheOthersAsTheyWere()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        const auto readoutHardware = [&] {
            std::vector<std::string> hw;
            for (const HardwareLadder& h : m_window->readout()->model()->readings())
                hw.push_back(h.hardware);
            return hw;
        };
        const auto ladderHardware = [&] {
            std::vector<std::string> hw;
            for (const HardwareLadder& h : m_window->ladder()->model()->tiers().front().ladders)
                hw.push_back(h.hardware);
            return hw;
        };
        const std::vector<std::string> before = readoutHardware();
        QVERIFY(before.size() >= 3);
        QVERIFY(std::find(before.begin(), before.end(), "b200") != before.end());
        QVERIFY2(std::find(before.begin(), before.end(), "h200") == before.end(), "H200 ran FP8 only here");
        filterItem(QStringLiteral("B200"))->setCheckState(Qt::Unchecked);
        QVERIFY(waitShown());
        std::vector<std::string> expected = before;
        expected.erase(std::find(expected.begin(), expected.end(), "b200"));
        QCOMPARE(readoutHardware(), expected);
        QCOMPARE(ladderHardware(), expected);
        for (const HardwareLadder& h : m_window->readout()->model()->readings())
            QVERIFY2(h.rows.front().entry.status != LadderStatus::NoData, h.hardware.c_str());
        // the plan too: the hardware with runs in the scope (it listed every hardware ticked)
        QSignalSpy planned(m_window->plan(), &PlanPanel::planShown);
        m_window->showPanel(m_window->plan());
        QVERIFY(planned.wait(10000));
        std::vector<std::string> inPlan;
        for (const HardwarePlan& h : m_window->plan()->plan().hardware)
            inPlan.push_back(h.hardware);
        QCOMPARE(inPlan, expected);
        m_window->showPanel(m_window->ladder());
        filterItem(QStringLiteral("B200"))->setCheckState(Qt::Checked);
        QVERIFY(waitShown());
        QCOMPARE(readoutHardware(), before);
    }

    // Filters that leave nothing say which value hides how many runs, and one click shows them all again.
    void filtersThatHideEverythingSaySoAndReset()
    {
        QVERIFY(show(QStringLiteral("fp8-only-model"), 1024, 1024));
        filterItem(QStringLiteral("FP8"))->setCheckState(Qt::Unchecked);
        QVERIFY(waitShown());
        QCOMPARE(int(m_window->scopeData()->runCount), 0);
        QLabel* hint = nullptr;
        for (QLabel* l : m_window->chartPanel()->findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains(QStringLiteral("The filters hide all")))
                hint = l;
        QVERIFY2(hint, "a line says the filters hide everything");
        QVERIFY2(hint->text().contains(QStringLiteral("all 3 runs"))
                && hint->text().contains(QStringLiteral("Precision FP8 hides 3 runs")),
            qPrintable(hint->text()));
        QPushButton* reset = nullptr;
        for (QPushButton* b : m_window->chartPanel()->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Show all runs"))
                reset = b;
        QVERIFY(reset && reset->isVisible());
        reset->click();
        QVERIFY(waitShown());
        QCOMPARE(int(m_window->scopeData()->runCount), 3);
        QVERIFY(!hint->isVisible());
        QCOMPARE(filterItem(QStringLiteral("FP8"))->checkState(), Qt::Checked);
    }

    // The Runs tab filters by every word in any column, and its count says how many match (it stayed "195 runs").
    void runsFilterMatchesEveryWordAndCounts()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        filterItem(QStringLiteral("FP8"))->setCheckState(Qt::Checked);
        QVERIFY(waitShown());
        RunsPanel* runs = m_window->runs();
        QSignalSpy page(runs->model(), &RunsModel::pageLoaded);
        m_window->findChild<QTabWidget*>()->setCurrentWidget(runs);
        QWidget* rows = runs->table()->viewport();
        if (runs->model()->loading()) { // read on the store worker: one page holds this scope's runs
            QVERIFY(page.wait(10000));
            // the first page painted once its columns are fitted (a few a turn, the cells' texts laid out then)
            QVERIFY(!rows->updatesEnabled());
        }
        QTRY_VERIFY(rows->updatesEnabled());
        QVERIFY(!runs->model()->loading());
        const int all = runs->model()->rowCount();
        QCOMPARE(runs->model()->total(), static_cast<long long>(all));
        QVERIFY(all > 0);
        QCOMPARE(runs->countText(), QStringLiteral("%1 runs").arg(QLocale(QLocale::English).toString(all)));
        // counted here on their own: rows whose some cell holds "mi355x" and some cell "mtp"
        auto holds = [&](int row, const QString& word) {
            for (int c = 0; c < runs->model()->columnCount(); ++c)
                if (runs->model()->index(row, c).data().toString().contains(word, Qt::CaseInsensitive))
                    return true;
            return false;
        };
        int expected = 0;
        for (int r = 0; r < all; ++r)
            expected += holds(r, QStringLiteral("mi355x")) && holds(r, QStringLiteral("mtp"));
        QVERIFY(expected > 0 && expected < all);
        runs->setFilterText(QStringLiteral("mi355x  MTP"));
        QCOMPARE(runs->proxy()->rowCount(), expected);
        QCOMPARE(runs->countText(),
            QStringLiteral("%1 of %2 runs match").arg(expected).arg(QLocale(QLocale::English).toString(all)));
        runs->setFilterText(QStringLiteral("mi355x nosuchword"));
        QCOMPARE(runs->proxy()->rowCount(), 0);
        runs->setFilterText(QString());
        QCOMPARE(runs->proxy()->rowCount(), all);
        // brought to the front again, the page paints its filter line first and its rows a turn later
        m_window->showPanel(m_window->ladder());
        QTRY_VERIFY(rows->updatesEnabled());
        m_window->showPanel(runs);
        QVERIFY(!rows->updatesEnabled());
        QTRY_VERIFY(rows->updatesEnabled());
        filterItem(QStringLiteral("FP8"))->setCheckState(Qt::Unchecked);
        QVERIFY(waitShown());
    }

    // The delete confirmation names each run by what tells runs of one configuration apart too (its concurrency and
    // its date: three GB300 runs read alike), and No, its default, deletes nothing.
    void deleteConfirmationNamesConcurrencyAndDate()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        RunsPanel* runs = m_window->runs();
        QSignalSpy page(runs->model(), &RunsModel::pageLoaded);
        m_window->findChild<QTabWidget*>()->setCurrentWidget(runs);
        if (runs->model()->loading())
            QVERIFY(page.wait(10000));
        QVERIFY(runs->proxy()->rowCount() > 0);
        const long long before = runs->model()->total();
        runs->table()->selectRow(0);
        const auto cell = [&](int c) { return runs->proxy()->index(0, c).data().toString(); };
        QPushButton* del = nullptr;
        for (QPushButton* b : runs->findChildren<QPushButton*>())
            if (b->text().startsWith(QStringLiteral("Delete")))
                del = b;
        QVERIFY(del);
        QString text;
        QTimer::singleShot(0, this, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box)
                return;
            text = box->text();
            QCOMPARE(box->defaultButton(), box->button(QMessageBox::No));
            box->button(QMessageBox::No)->click();
        });
        del->click();
        QVERIFY2(text.contains(QStringLiteral("concurrency %1").arg(cell(RunsModel::Concurrency)))
                && text.contains(cell(RunsModel::Date)) && text.contains(cell(RunsModel::Hardware))
                && text.contains(QStringLiteral("TP %1").arg(cell(RunsModel::Tp))),
            qPrintable(text));
        QTest::qWait(50);
        QCOMPARE(runs->model()->total(), before);
    }

    // A vLLM sweep of eight files from one folder asks once (it asked eight times), with the model taken from the
    // files' model_id (a Hugging Face cache path) and only the GPU counts that apply shown.
    void benchSweepAsksOncePerFolder()
    {
        QCOMPARE(modelName(QStringLiteral(
                     "/models/models--openai--gpt-oss-120b/snapshots/b5c939de8f754692c1647ca79fbf85e8c1e70f8a/")),
            QStringLiteral("gpt-oss-120b"));
        QCOMPARE(modelName(QStringLiteral("MiniMax-M2.5")), QStringLiteral("MiniMax-M2.5"));
        QCOMPARE(modelName(QStringLiteral("/data/llama-3-70b")), QStringLiteral("llama-3-70b"));
        const QDir folder(fixture(QStringLiteral("inferencex-raw-bench-serving/gpt-oss-120b")));
        QStringList paths;
        for (const QString& f : folder.entryList({ QStringLiteral("*.json") }, QDir::Files))
            paths << folder.filePath(f);
        QCOMPARE(paths.size(), 8);
        int asked = 0;
        QString offered, model;
        bool gpusShown = false, prefillShown = false;
        QObject answering; // the answers still due when the test ends go with it (they refer to its locals)
        std::function<void()> answer = [&] {
            CallerFieldsDialog* dialog = nullptr;
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* d = qobject_cast<CallerFieldsDialog*>(w); d && d->isVisible())
                    dialog = d;
            if (!dialog) {
                QTimer::singleShot(20, &answering, answer);
                return;
            }
            ++asked;
            for (QCheckBox* c : dialog->findChildren<QCheckBox*>())
                if (c->isVisible())
                    offered = c->text();
            for (QLineEdit* e : dialog->findChildren<QLineEdit*>())
                if (e->placeholderText().startsWith(QStringLiteral("e.g. b300")))
                    e->setText(QStringLiteral("b200"));
                else if (e->placeholderText().startsWith(QStringLiteral("e.g. DeepSeek")))
                    model = e->text();
            for (QSpinBox* sb : dialog->findChildren<QSpinBox*>())
                if (sb->value() == 8 && sb->isVisible()) {
                    gpusShown = true;
                    sb->setValue(16);
                }
            prefillShown = false;
            for (QSpinBox* sb : dialog->findChildren<QSpinBox*>())
                prefillShown = prefillShown || (sb->minimum() == 1 && sb->isVisible());
            dialog->accept();
            if (asked < 10) // a dialog per file would be answered too, and counted
                QTimer::singleShot(20, &answering, answer);
        };
        QTimer::singleShot(0, &answering, answer);
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importPaths(paths);
        QVERIFY(done.count() || done.wait(30000));
        QCOMPARE(asked, 1);
        QVERIFY2(offered.contains(QStringLiteral("other 7 vllm-bench files from")), qPrintable(offered));
        QCOMPARE(model, QStringLiteral("gpt-oss-120b"));
        QVERIFY(gpusShown);
        QVERIFY2(!prefillShown, "aggregated serving shows one GPU count");
        const QList<ImportResultLine> results = m_window->lastImportResults();
        QCOMPARE(results.size(), 8);
        for (const ImportResultLine& r : results)
            QVERIFY2(
                r.ok && r.message.startsWith(QStringLiteral("1 run imported (vllm-bench)")), qPrintable(r.message));
        // the results read whole: a long result wraps, its notes under it
        ImportResultLine noted { QStringLiteral("agg.json"), true,
            QStringLiteral("3 runs imported (inferencex-agg), 0 already stored"),
            { QStringLiteral("agg.json: 1 record (2): field 'input_tput_per_gpu' is 0, left out") } };
        ImportResultsDialog dialog({ noted });
        QTreeWidgetItem* item = dialog.list()->topLevelItem(0);
        QVERIFY(item->text(1).contains(QStringLiteral("left out")));
        QVERIFY(dialog.list()->wordWrap());
        QCOMPARE(dialog.list()->header()->sectionResizeMode(0), QHeaderView::Interactive);
        // the sentence over the list counts what failed among what was given ("1 source(s) failed…; the others are
        // stored." where there were no others)
        const ImportResultLine bad { QStringLiteral("bad.json"), false, QStringLiteral("bad.json: line 1: not JSON"),
            {} };
        QCOMPARE(ImportResultsDialog({ bad }).summary(), QStringLiteral("The source failed and imported nothing."));
        QCOMPARE(
            ImportResultsDialog({ bad, bad }).summary(), QStringLiteral("All 2 sources failed and imported nothing."));
        QVERIFY(ImportResultsDialog({ bad, noted, noted })
                    .summary()
                    .startsWith(QStringLiteral("1 of 3 sources failed and imported nothing; the others are stored.")));
        QVERIFY(ImportResultsDialog({ noted }).summary().startsWith(QStringLiteral("Every source was imported.")));
    }

    // Another process writes runs of a new model into the store the window shows (here another connection, as the
    // CLI or a cluster collect has): the window notices within a few seconds and lists the model, and shows its runs.
    void runsWrittenElsewhereAppear()
    {
        auto other = openStore(m_dir.filePath(QStringLiteral("store.sqlite")).toStdString(), true);
        QVERIFY(other.ok());
        const std::string json
            = recordsJson(sweepRecords("written-elsewhere", "b300", "vllm", "fp4", { 1, 8 }, 200, 900));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("elsewhere.json")), QByteArray::fromStdString(json)));
        QVERIFY(importPath(**other, m_dir.filePath(QStringLiteral("elsewhere.json")).toStdString(), {})[0].result.ok());
        QTRY_VERIFY_WITH_TIMEOUT(
            m_window->filters()->selectScope(QStringLiteral("written-elsewhere"), {}, 1024, 1024), 10000);
        QVERIFY(show(QStringLiteral("written-elsewhere"), 1024, 1024));
        QCOMPARE(int(m_window->scopeData()->runCount), 2);
    }

    void cleanupTestCase() { m_window.reset(); }
};

PARETOSCOPE_SUITE(TestExplorerRuns)
#include "tst_explorerruns.moc"
