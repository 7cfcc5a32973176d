// File → Update from InferenceX… (docs/sync.md) against a local replay of the API serving the real DeepSeek-R1 rows of
// ../shared/fixtures/real/inferencex-app-api: the dialog lists a row per request with its progress, says what changed,
// brings the new runs into the window, keeps its edits when reopened, refuses a bad field naming it, and cancels.
#include <QtTest>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTreeWidget>
#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/import/bundled.h"
#include "core/store/syncstate.h"
#include "tests/support/replayserver.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/imports/synccontroller.h"
#include "widgets/imports/syncdialog.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;
using nlohmann::json;

namespace {

json fixtureRows(const char* name)
{
    std::ifstream in(fixture(QStringLiteral("inferencex-app-api/") + QString::fromLatin1(name)).toStdString());
    return json::parse(in);
}

/// The window on a new store at `db` (it gets the bundled dataset), shown once it shows that scope; null where the
/// store does not open or no scope is shown in 20 s.
std::unique_ptr<MainWindow> windowOnNewStore(const QString& db)
{
    auto store = openStore(db.toStdString(), true);
    if (!store.ok())
        return nullptr;
    auto window = std::make_unique<MainWindow>(std::move(*store));
    QSignalSpy shown(window.get(), &MainWindow::scopeShown);
    window->show();
    if (!shown.wait(20000) || !window->scopeData() || window->scopeData()->scope.model != kBundledModel)
        return nullptr;
    return window;
}

} // namespace

class TestSyncDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { isolateSettings(m_dir, "tst_syncdialog"); }

    void aSyncListsItsRequestsSaysWhatChangedAndShowsTheNewRuns()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(fixtureRows("benchmarks.json"));
        server.setEvaluations(fixtureRows("evaluations.json"));
        const auto window = windowOnNewStore(dir.filePath(QStringLiteral("sync.sqlite")));
        QVERIFY(window);

        SyncDialog* dialog = window->openSync();
        QVERIFY(dialog->isVisible());
        dialog->sourceEdit()->setText(QString::fromStdString(server.root()));
        // a bad field is named, and nothing starts
        auto* sequences = dialog->findChildren<QLineEdit*>().at(2);
        sequences->setText(QStringLiteral("1k"));
        QVERIFY(!dialog->startSync());
        QVERIFY2(dialog->statusText().startsWith(QStringLiteral("Sequences: sequence '1k'")),
            qPrintable(dialog->statusText()));
        sequences->clear();

        QSignalSpy changed(dialog, &SyncDialog::storeChanged);
        QVERIFY(dialog->startSync());
        QVERIFY(!dialog->syncButton()->isEnabled() && dialog->cancelButton()->isEnabled());
        QVERIFY(changed.wait(60000));
        QTRY_VERIFY(dialog->syncButton()->isEnabled());
        // a row per sequence and one for the evaluations (asked by default), each done with its bar full and its
        // count of new runs
        QCOMPARE(dialog->items()->topLevelItemCount(), 4);
        QCOMPARE(dialog->items()->topLevelItem(3)->text(0), QStringLiteral("evaluations"));
        int imported = 0;
        for (int i = 0; i < 4; ++i) {
            QTreeWidgetItem* row = dialog->items()->topLevelItem(i);
            if (i < 3)
                QVERIFY2(row->text(0).startsWith(QStringLiteral("DeepSeek-R1-0528 ")), qPrintable(row->text(0)));
            QCOMPARE(row->text(4), QStringLiteral("done"));
            auto* bar = qobject_cast<QProgressBar*>(dialog->items()->itemWidget(row, 1));
            QVERIFY(bar && bar->value() == bar->maximum());
            if (i < 3)
                imported += row->text(3).section(QLatin1Char(' '), 0, 0).remove(QLatin1Char(',')).toInt();
        }
        QCOMPARE(imported, 435);
        QVERIFY2(
            dialog->summaryText().contains(QStringLiteral("new accuracy runs")), qPrintable(dialog->summaryText()));
        QVERIFY2(dialog->summaryText().startsWith(QStringLiteral("435 new runs (DeepSeek-R1-0528 435).")),
            qPrintable(dialog->summaryText()));
        QVERIFY2(
            dialog->summaryText().contains(QStringLiteral("New groups (hardware, engine, precision, spec decoding): "
                                                          "DeepSeek-R1-0528 1k/1k ")),
            qPrintable(dialog->summaryText()));
        // the window reads the store again and brings the first new scope into view
        QTRY_VERIFY_WITH_TIMEOUT(window->scopeData() && window->scopeData()->scope.model == "dsr1", 20000);

        // reopened, the dialog keeps what was typed; a second sync finds nothing new: no history is fetched, only the
        // evaluations again (their route says no dates), all of them stored before
        dialog->close();
        window->openSync();
        QCOMPARE(dialog->sourceEdit()->text(), QString::fromStdString(server.root()));
        server.takeRequests();
        QVERIFY(dialog->startSync());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->syncButton()->isEnabled(), 30000);
        QCOMPARE(dialog->items()->topLevelItemCount(), 1);
        QVERIFY2(dialog->items()->topLevelItem(0)->text(3).startsWith(QStringLiteral("0 new")),
            qPrintable(dialog->items()->topLevelItem(0)->text(3)));
        QVERIFY2(dialog->summaryText().contains(QStringLiteral("3 models and sequences were up to date")),
            qPrintable(dialog->summaryText()));
        QCOMPARE(server.takeRequests(), (std::vector<std::string> { "/api/v1/availability", "/api/v1/evaluations" }));
    }

    void cancelStopsTheSyncAndKeepsWhatWasCompleted()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(fixtureRows("benchmarks.json"));
        // the second sequence's answer stalls: the first is imported, then Cancel
        server.failNext(
            "/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=1024&osl=8192", { 0, -1, false, true, 8 });
        const QString db = dir.filePath(QStringLiteral("cancel.sqlite"));
        const auto window = windowOnNewStore(db);
        QVERIFY(window);
        SyncDialog* dialog = window->openSync();
        dialog->sourceEdit()->setText(QString::fromStdString(server.root()));
        dialog->findChildren<QSpinBox*>().at(0)->setValue(1);
        dialog->findChildren<QCheckBox*>().at(0)->setChecked(false); // no evaluations
        QVERIFY(dialog->startSync());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->items()->topLevelItemCount() == 3
                && dialog->items()->topLevelItem(0)->text(4) == QStringLiteral("done"),
            30000);
        QTRY_COMPARE_WITH_TIMEOUT(dialog->items()->topLevelItem(1)->text(4), QStringLiteral("downloading"), 10000);
        QTest::mouseClick(dialog->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->syncButton()->isEnabled(), 15000);
        QVERIFY2(dialog->statusText().startsWith(QStringLiteral("Cancelled")), qPrintable(dialog->statusText()));
        QCOMPARE(dialog->items()->topLevelItem(1)->text(4), QStringLiteral("not fetched: cancelled"));
        auto reader = RunStore::open(db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(reader.ok());
        auto marks = readSyncMarks(**reader, server.root());
        QVERIFY(marks.ok());
        QCOMPARE(marks->size(), std::size_t(1));
    }

    // The store watch reads the scope list while the sync writes (every 2 s): the scope the sync brought is listed
    // before it ends, and still comes into view when it ends (the CI's ASan run, slow, saw it stay on the old one).
    void aNewScopeListedWhileTheSyncRanStillComesIntoView()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(fixtureRows("benchmarks.json"));
        server.setEvaluations(fixtureRows("evaluations.json"));
        // the evaluations, fetched last, stall 6 s once (then are fetched again): the three sequences' runs are
        // stored, and the watch looks three times before the sync ends
        server.failNext("/api/v1/evaluations", { 0, -1, false, true, 6 });
        const auto window = windowOnNewStore(dir.filePath(QStringLiteral("watch.sqlite")));
        QVERIFY(window);
        SyncDialog* dialog = window->openSync();
        dialog->sourceEdit()->setText(QString::fromStdString(server.root()));
        dialog->findChildren<QCheckBox*>().at(0)->setChecked(true); // the evaluations (the test before left them off)
        QVERIFY(dialog->startSync());
        const auto listed = [&window] {
            const auto scopes = window->filters()->scopes();
            return std::count_if(scopes.begin(), scopes.end(), [](const ScopeSummary& s) { return s.model == "dsr1"; })
                == 3;
        };
        QTRY_VERIFY_WITH_TIMEOUT(listed(), 30000);
        QVERIFY(!dialog->syncButton()->isEnabled()); // listed by the watch, the sync still running
        QCOMPARE(window->scopeData()->scope.model, std::string(kBundledModel));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->syncButton()->isEnabled(), 60000);
        QVERIFY2(dialog->statusText() == QStringLiteral("Done."), qPrintable(dialog->statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(window->scopeData() && window->scopeData()->scope.model == "dsr1", 20000);
    }

    // The look for new data at start (a setting, off by default): the list read, nothing fetched, the status says it.
    void theCheckOnStartSaysThereIsNewData()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(fixtureRows("benchmarks.json"));
        QSettings settings;
        settings.setValue(QStringLiteral("sync/checkOnStart"), true);
        settings.setValue(QStringLiteral("sync/source"), QString::fromStdString(server.root()));
        settings.setValue(QStringLiteral("sync/evaluations"), false);
        auto store = openStore(dir.filePath(QStringLiteral("check.sqlite")).toStdString(), true);
        QVERIFY(store.ok());
        MainWindow window(std::move(*store));
        auto* controller = window.findChild<SyncController*>();
        QVERIFY(controller); // made at start only because the check is on
        QSignalSpy checked(controller, &SyncController::checked);
        window.show();
        QVERIFY(checked.count() > 0 || checked.wait(20000));
        QCOMPARE(checked.front().front().toInt(), 3); // the three sequences of DeepSeek-R1-0528
        // the window's handler ran before the spy's (connected first): the status line says it
        QString status;
        for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
            status += label->text();
        QVERIFY2(status.contains(QStringLiteral("InferenceX has newer runs than this store (3 requests)")),
            qPrintable(status));
        QCOMPARE(server.takeRequests(), std::vector<std::string> { "/api/v1/availability" });
        settings.setValue(QStringLiteral("sync/checkOnStart"), false);
    }
};

PARETOSCOPE_SUITE(TestSyncDialog)
#include "tst_syncdialog.moc"
