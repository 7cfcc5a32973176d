// Session → Cluster sweep… (offscreen): a matrix filled in the dialog, its array written, tasks that finish and
// fail the way array.sbatch makes them (results/N.json from the CLI's bench and export, status/N), the tasks shown
// with their state and reason, their runs collected into the store once, and the points landing on the chart.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <map>

#include "core/live/matrix.h"
#include "core/live/recipe.h"
#include "core/store/runstore.h"
#include "tests/support/clirun.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/cluster/clustersweepdialog.h"
#include "widgets/cluster/matrixeditor.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::ui;
using namespace paretoscope::testsupport;

namespace {

constexpr int kIsl = 64;
constexpr int kOsl = 8;
const QString kModel = QStringLiteral("DeepSeek-V4.1-Flash"); // the sim recipe's model, which the tasks' runs carry

long long storedRuns(const QString& path)
{
    auto store = RunStore::open(path.toStdString(), StoreAccess::ReadOnly);
    return store ? (*store)->runCount() : -1;
}

} // namespace

class TestClusterSweep : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_array;
    long long m_exported = 0; // runs in the results files, counted from the files themselves

    // What a task of array.sbatch leaves when it ends well: bench into its own store, export as Paretoscope JSON to
    // results/N.json, then status/N. Here bench runs against the emulator started by the test with the task's
    // profile, whose label its runs carry (b300-sim, mi325x-sim), as a task's do.
    bool finishTask(int task, const QString& profile, const QString& levels)
    {
        SimProcess sim({ QStringLiteral("--profile"), profile, QStringLiteral("--model"), kModel });
        if (!sim.ok())
            return false;
        const QString db = m_tmp.filePath(QStringLiteral("task%1.sqlite").arg(task));
        Run bench = runCli({ QStringLiteral("bench"), QStringLiteral("--endpoint"), sim.url(),
            QStringLiteral("--model"), kModel, QStringLiteral("--isl"), QString::number(kIsl), QStringLiteral("--osl"),
            QString::number(kOsl), QStringLiteral("--concurrency"), levels, QStringLiteral("--hardware"),
            QStringLiteral("b300"), QStringLiteral("--engine"), QStringLiteral("vllm"), QStringLiteral("--gpus"),
            QStringLiteral("8"), QStringLiteral("--db"), db });
        if (bench.code != 0) {
            qWarning() << bench.err;
            return false;
        }
        Run exported = runCli({ QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--model"), kModel,
            QStringLiteral("--isl"), QString::number(kIsl), QStringLiteral("--osl"), QString::number(kOsl),
            QStringLiteral("--runs"), QStringLiteral("all"), QStringLiteral("--include-marked"),
            QStringLiteral("--format"), QStringLiteral("json") });
        const QJsonDocument d = QJsonDocument::fromJson(exported.out);
        if (exported.code != 0 || !d.isArray() || d.array().isEmpty())
            return false;
        m_exported += d.array().size();
        const QString dir = m_array + QStringLiteral("/");
        return writeFile(dir + QStringLiteral("results/%1.json").arg(task), exported.out)
            && writeFile(dir + QStringLiteral("status/%1").arg(task), "finished\n");
    }

    static QString cell(ClusterSweepDialog& d, int row, int column)
    {
        const QTableWidgetItem* item = d.tasks()->item(row, column);
        return item ? item->text() : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        isolateSettings(m_tmp, "tst_clustersweep"); // the dialog keeps its matrix in the settings
        m_array = m_tmp.filePath(QStringLiteral("array"));
    }

    void dialogWritesFollowsAndCollects()
    {
        const QString storePath = m_tmp.filePath(QStringLiteral("store.sqlite"));
        QVERIFY(openTempStore(m_tmp));
        ClusterSweepDialog dialog(storePath);
        dialog.setCliPath(cliProgram());
        dialog.setInterval(3600); // looks only when the test asks
        dialog.resize(1366, 768);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));

        // three configurations of the sim recipe: b300-sim, mi325x-sim, and an unknown profile made to fail
        MatrixEditor* m = dialog.matrix();
        QTableWidget* t = m->table();
        t->setRowCount(0);
        const char* profiles[] { "b300-sim", "mi325x-sim", "h100-sim" };
        for (int r = 0; r < 3; ++r) {
            m->addConfiguration();
            t->item(r, MatrixEditor::Name)->setText(QString::fromLatin1(profiles[r]).remove(QStringLiteral("-sim")));
            t->item(r, MatrixEditor::Profile)->setText(QString::fromLatin1(profiles[r]));
            t->item(r, MatrixEditor::Isl)->setText(QString::number(kIsl));
            t->item(r, MatrixEditor::Osl)->setText(QString::number(kOsl));
            t->item(r, MatrixEditor::Concurrency)->setText(QStringLiteral("1, 2"));
        }
        // the mi325x-sim task sweeps one level more (collect takes only a task's own levels)
        t->item(1, MatrixEditor::Concurrency)->setText(QStringLiteral("1, 2, 4"));
        QCOMPARE(
            qobject_cast<QComboBox*>(t->cellWidget(1, MatrixEditor::Recipe))->currentText(), QStringLiteral("sim"));
        // a refusal is the parser's, naming the configuration and the field; nothing is written
        t->item(1, MatrixEditor::Tp)->setText(QStringLiteral("eight"));
        auto refused = m->check();
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error()).contains(QStringLiteral("configuration 1, field tp")),
            refused.error().c_str());
        dialog.setOutputFolder(m_array);
        QVERIFY(!dialog.writeArray());
        QVERIFY(!QFile::exists(m_array + QStringLiteral("/array.sbatch")));
        t->item(1, MatrixEditor::Tp)->setText(QStringLiteral("8"));
        QVERIFY(m->check());

        // no array yet: no count of its tasks ("0 of 1 tasks ended" spoke of one)
        auto* progress = dialog.findChild<QProgressBar*>();
        QVERIFY(progress && progress->isHidden());

        // the array: one task per row
        QSignalSpy refreshed(&dialog, &ClusterSweepDialog::refreshed);
        Status written = dialog.writeArray();
        QVERIFY2(written, written ? "" : written.error().c_str());
        const QString script = QString::fromUtf8(readAll(m_array + QStringLiteral("/array.sbatch")));
        QVERIFY(script.contains(QStringLiteral("#SBATCH --array=0-2\n")));
        const QRegularExpression caseLine(QStringLiteral("^(\\d+)\\)$"), QRegularExpression::MultilineOption);
        QStringList tasks;
        for (auto it = caseLine.globalMatch(script); it.hasNext();)
            tasks << it.next().captured(1);
        QCOMPARE(tasks, QStringList({ QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2") }));
        QVERIFY(script.contains(QStringLiteral("--profile h100-sim")));
        QVERIFY(QFile::exists(m_array + QStringLiteral("/submit.sh")));
        QVERIFY(refreshed.wait(10000));
        QCOMPARE(dialog.tasks()->rowCount(), 3);
        QCOMPARE(cell(dialog, 0, ClusterSweepDialog::State), QStringLiteral("pending (not submitted)"));
        QCOMPARE(cell(dialog, 2, ClusterSweepDialog::Resources), QStringLiteral("1 node, no GPU (simulation)"));
        QVERIFY(!progress->isHidden());
        QCOMPARE(progress->text(), QStringLiteral("0 of 3 tasks ended"));
        // the state whole (it was cut to "pending (n…")
        QVERIFY(dialog.tasks()->columnWidth(ClusterSweepDialog::State)
            > dialog.tasks()->fontMetrics().horizontalAdvance(QStringLiteral("pending (not submitted)")));

        // two tasks finish, the third fails with its reason, as array.sbatch writes them
        QVERIFY(finishTask(0, QStringLiteral("b300-sim"), QStringLiteral("1,2")));
        QVERIFY(finishTask(1, QStringLiteral("mi325x-sim"), QStringLiteral("1,2,4")));
        QVERIFY(writeFile(m_array + QStringLiteral("/status/2"), "failed: unknown profile h100-sim\n"));
        QSignalSpy collected(&dialog, &ClusterSweepDialog::runsCollected);
        refreshed.clear();
        dialog.refreshNow();
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(cell(dialog, 0, ClusterSweepDialog::State), QStringLiteral("finished"));
        QCOMPARE(cell(dialog, 1, ClusterSweepDialog::State), QStringLiteral("finished"));
        QCOMPARE(cell(dialog, 2, ClusterSweepDialog::State), QStringLiteral("failed"));
        QCOMPARE(cell(dialog, 2, ClusterSweepDialog::Reason), QStringLiteral("unknown profile h100-sim"));
        QCOMPARE(cell(dialog, 0, ClusterSweepDialog::Runs), QStringLiteral("2"));
        QCOMPARE(cell(dialog, 1, ClusterSweepDialog::Runs), QStringLiteral("3"));
        QCOMPARE(collected.size(), 1);
        QCOMPARE(collected.front().at(0).toULongLong(), qulonglong(m_exported));
        QCOMPARE(collected.front().at(1).toString(), kModel);
        QVERIFY2(
            dialog.summaryText().contains(QStringLiteral("2 finished, 1 failed")), qPrintable(dialog.summaryText()));
        // the controller is idle (its answer arrived): the store holds every level of the two good tasks
        QCOMPARE(m_exported, 5LL);
        QCOMPARE(storedRuns(storePath), m_exported);
        QCOMPARE(readAll(m_array + QStringLiteral("/collected")).count('\n'), 2);

        // idempotent, as cluster collect is: a second look imports nothing
        refreshed.clear();
        dialog.refreshNow();
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(collected.size(), 1);
        QCOMPARE(storedRuns(storePath), m_exported);
        // the CLI agrees that both were collected into this store, and says the third failed
        Run status = runCli(
            { QStringLiteral("cluster"), QStringLiteral("status"), m_array, QStringLiteral("--db"), storePath });
        QCOMPARE(status.code, 0);
        QVERIFY2(status.out.contains("0\tfinished\tb300\tcollected"), status.out.constData());

        const QString shot = (shotDir() + QStringLiteral("/clustersweep-1366x768.png"));
        QVERIFY(dialog.grab().save(shot));
        qInfo("dialog picture: %s", qPrintable(shot));
    }

    // The window's Session menu opens the dialog; runs it collects land on the chart, their scope brought into view.
    // A configuration that recipes cannot start as meant (disaggregated: prefill and decode servers and a router) is
    // written, and the dialog says at once that its task will fail and why; the task's case carries the reason.
    void unrunnableTaskIsNamedWhenWritten()
    {
        QTemporaryDir dir;
        ClusterSweepDialog dialog(dir.filePath(QStringLiteral("store.sqlite")));
        dialog.setInterval(3600);
        dialog.resize(1366, 768);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        MatrixEditor* m = dialog.matrix();
        QTableWidget* t = m->table();
        t->setRowCount(0);
        m->addConfiguration();
        auto* recipe = qobject_cast<QComboBox*>(t->cellWidget(0, MatrixEditor::Recipe));
        QVERIFY(recipe);
        recipe->setCurrentIndex(recipe->findText(QStringLiteral("sglang-b300-nvfp4")));
        QCOMPARE(recipe->currentText(), QStringLiteral("sglang-b300-nvfp4"));
        t->item(0, MatrixEditor::Name)->setText(QStringLiteral("pd"));
        t->item(0, MatrixEditor::Profile)->setText(QString());
        t->item(0, MatrixEditor::Isl)->setText(QStringLiteral("1024"));
        t->item(0, MatrixEditor::Osl)->setText(QStringLiteral("1024"));
        t->item(0, MatrixEditor::Concurrency)->setText(QStringLiteral("1, 4"));
        t->item(0, MatrixEditor::Other)
            ->setText(QStringLiteral(R"({"prefill": {"nodes": 1, "tp": 8}, "decode": {"nodes": 2, "tp": 8}})"));
        dialog.setOutputFolder(dir.filePath(QStringLiteral("array")));
        Status written = dialog.writeArray();
        QVERIFY2(written, written ? "" : written.error().c_str());
        QVERIFY2(dialog.writtenText().contains(
                     QStringLiteral("Task 0 (pd) will fail at once: a disaggregated configuration")),
            qPrintable(dialog.writtenText()));
        QVERIFY(QString::fromUtf8(readAll(dir.filePath(QStringLiteral("array/array.sbatch"))))
                    .contains(QStringLiteral("UNRUNNABLE=")));
        QApplication::processEvents(); // the labels' new lines laid out
        QVERIFY(dialog.grab().save((shotDir() + QStringLiteral("/clustersweep-unrunnable-1366x768.png"))));
    }

    void pointsLandOnTheChart()
    {
        QVERIFY(QFile::exists(m_array + QStringLiteral("/status/0"))); // the array of the test before
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(store);
        const QString storePath = QString::fromStdString(store->path());
        MainWindow window(std::move(store));
        window.setShowImportResults(false);
        window.resize(1366, 768);
        window.show();
        QAction* action = nullptr;
        for (QAction* a : window.menuBar()->findChildren<QAction*>())
            if (a->text() == QStringLiteral("Cluster &sweep…"))
                action = a;
        QVERIFY(action);
        action->trigger();
        ClusterSweepDialog* dialog = window.findChild<ClusterSweepDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        dialog->setInterval(3600);
        QSignalSpy shown(&window, &MainWindow::scopeShown);
        QVERIFY(dialog->follow(m_array)); // collected into another store before: this one collects its own
        for (int i = 0; i < 20; ++i) {
            auto d = window.scopeData();
            if (d && QString::fromStdString(d->scope.model) == kModel && d->scope.isl.value_or(0) == kIsl
                && d->runCount == 5)
                break;
            shown.wait(2000);
        }
        auto d = window.scopeData();
        QVERIFY(d);
        QCOMPARE(QString::fromStdString(d->scope.model), kModel);
        QCOMPARE(d->runCount, std::size_t(5));
        QCOMPARE(d->runs.size(), std::size_t(2)); // b300-sim and mi325x-sim, each with its own levels
        std::map<std::string, std::size_t> points;
        for (const GroupRuns& g : d->runs)
            points[g.key.hardware] = g.points.size();
        QCOMPARE(points, (std::map<std::string, std::size_t> { { "b300-sim", 2 }, { "mi325x-sim", 3 } }));
        QCOMPARE(storedRuns(storePath), 5LL);
    }

    // The matrix is kept as it is edited: a dialog made again (the explorer restarted) shows the edits, not two new
    // rows (issue 42). New rows serve the model the last live session launched on the emulator, written in the row,
    // where they served the emulator recipe's own whatever the session used.
    void editsAreKeptAndRowsServeTheSessionsModel()
    {
        QSettings settings;
        settings.remove(QString::fromLatin1(ClusterSweepDialog::kMatrixKey));
        settings.setValue(QStringLiteral("sessionDialog/useRecipe"), true);
        settings.setValue(QStringLiteral("sessionDialog/recipe"), QStringLiteral("engine-sim-b300"));
        settings.setValue(QStringLiteral("sessionDialog/recipeModel"), QStringLiteral("Qwen3-235B-A22B"));
        QTemporaryDir dir;
        {
            ClusterSweepDialog first(dir.filePath(QStringLiteral("store.sqlite")));
            QTableWidget* t = first.matrix()->table();
            QCOMPARE(t->rowCount(), 2);
            for (int r = 0; r < 2; ++r)
                QCOMPARE(t->item(r, MatrixEditor::Model)->text(), QStringLiteral("Qwen3-235B-A22B"));
            first.matrix()->addConfiguration();
            t->item(2, MatrixEditor::Name)->setText(QStringLiteral("kept-row"));
            t->item(2, MatrixEditor::Concurrency)->setText(QStringLiteral("2, 8, 32"));
            auto* time = first.findChild<QLineEdit*>(QStringLiteral("timeLimit"));
            QVERIFY(time);
            time->setText(QStringLiteral("01:30:00"));
            emit time->textEdited(time->text());
        }
        ClusterSweepDialog again(dir.filePath(QStringLiteral("store.sqlite")));
        QTableWidget* t = again.matrix()->table();
        QCOMPARE(t->rowCount(), 3);
        QCOMPARE(t->item(2, MatrixEditor::Name)->text(), QStringLiteral("kept-row"));
        QCOMPARE(t->item(2, MatrixEditor::Concurrency)->text(), QStringLiteral("2, 8, 32"));
        QCOMPARE(again.findChild<QLineEdit*>(QStringLiteral("timeLimit"))->text(), QStringLiteral("01:30:00"));
        auto kept = again.matrix()->check();
        QVERIFY2(kept, kept ? "" : kept.error().c_str());
        QCOMPARE(kept->configurations[2].model, std::string("Qwen3-235B-A22B"));
        // a session on a real engine's recipe says nothing of the emulator: the emulator recipe's model
        settings.setValue(QStringLiteral("sessionDialog/recipe"), QStringLiteral("vllm-b300-nvfp4"));
        settings.remove(QString::fromLatin1(ClusterSweepDialog::kMatrixKey));
        ClusterSweepDialog fresh(dir.filePath(QStringLiteral("store.sqlite")));
        QCOMPARE(fresh.matrix()->table()->item(0, MatrixEditor::Model)->text(),
            QString::fromStdString(bundledRecipe("sim")->defaults.at("model")));
        // a kept matrix that is not one (a hand-edited settings file) leaves the two new rows
        settings.setValue(QString::fromLatin1(ClusterSweepDialog::kMatrixKey), QStringLiteral("{ not json"));
        ClusterSweepDialog garbled(dir.filePath(QStringLiteral("store.sqlite")));
        QCOMPARE(garbled.matrix()->table()->rowCount(), 2);
        settings.remove(QStringLiteral("sessionDialog"));
        settings.remove(QString::fromLatin1(ClusterSweepDialog::kMatrixKey));
    }

    // A matrix file opens into the table and saves back to the same matrix; fields without a column (a
    // disaggregated layout) ride in Other; a refusal names the configuration and the field
    void matrixFileRoundTrip()
    {
        MatrixEditor editor;
        const QString example = (resourcesDir() + QStringLiteral("/matrices/sim-example.json"));
        QVERIFY(editor.openFile(example));
        QTableWidget* t = editor.table();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(1, MatrixEditor::Profile)->text(), QStringLiteral("mi325x-sim"));
        QCOMPARE(t->item(0, MatrixEditor::Concurrency)->text(), QStringLiteral("1, 4, 16"));
        const QString saved = m_tmp.filePath(QStringLiteral("saved.json"));
        QVERIFY(editor.saveFile(saved));
        auto original = parseMatrix(readAll(example).toStdString(), "example");
        auto again = parseMatrix(readAll(saved).toStdString(), "saved");
        QVERIFY(original && again);
        QCOMPARE(again->time, original->time);
        QCOMPARE(again->description, original->description);
        QCOMPARE(again->configurations.size(), original->configurations.size());
        for (std::size_t i = 0; i < again->configurations.size(); ++i) {
            const MatrixConfig &a = again->configurations[i], &o = original->configurations[i];
            QCOMPARE(a.name, o.name);
            QCOMPARE(a.profile, o.profile);
            QCOMPARE(a.tp, o.tp);
            QCOMPARE(a.isl, o.isl);
            QCOMPARE(a.osl, o.osl);
            QCOMPARE(a.concurrencies, o.concurrencies);
        }

        // a disaggregated layout in Other; auto concurrency
        t->item(0, MatrixEditor::Other)
            ->setText(QStringLiteral(R"({"prefill": {"nodes": 1, "tp": 8}, "decode": {"nodes": 2, "tp": 16}})"));
        t->item(0, MatrixEditor::Concurrency)->setText(QStringLiteral("auto"));
        auto disagg = editor.check();
        QVERIFY2(disagg, disagg ? "" : disagg.error().c_str());
        QVERIFY(disagg->configurations[0].prefill && disagg->configurations[0].decode);
        QCOMPARE(disagg->configurations[0].decode->nodes, 2);
        QVERIFY(disagg->configurations[0].autoConcurrency);
        QCOMPARE(taskResources(disagg->configurations[0]).nodes, 3);
        // refusals: the parser's message, naming the configuration and the field
        const std::pair<int, QString> bad[] { { MatrixEditor::Concurrency, QStringLiteral("1, four") },
            { MatrixEditor::Other, QStringLiteral("{\"prefill\": {\"nodes\": 1}}") },
            { MatrixEditor::Other, QStringLiteral("not json") }, { MatrixEditor::Repeats, QStringLiteral("0") } };
        const char* field[] { "configuration 1, field concurrency", "configuration 1, field decode",
            "configuration 1, field other fields", "configuration 1, field repeats" };
        for (std::size_t i = 0; i < std::size(bad); ++i) {
            const QString before = t->item(1, bad[i].first)->text();
            t->item(1, bad[i].first)->setText(bad[i].second);
            auto refused = editor.check();
            QVERIFY(!refused);
            QVERIFY2(
                QString::fromStdString(refused.error()).contains(QLatin1String(field[i])), refused.error().c_str());
            QVERIFY(!editor.saveFile(saved));
            t->item(1, bad[i].first)->setText(before);
        }
        QVERIFY(editor.check());
        QVERIFY(!editor.openFile(m_tmp.filePath(QStringLiteral("none.json"))));
        QCOMPARE(t->rowCount(), 2); // a file that cannot be read changes nothing
    }

    // Submit runs submit.sh without blocking and shows the job id; the tasks' states then come from squeue. Stand-ins
    // for sbatch and squeue on the PATH play the scheduler; without sbatch the button is off and says why.
    void submitsAndFollowsTheScheduler()
    {
        const QString bin = m_tmp.filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        const std::pair<const char*, QByteArray> tools[] { { "sbatch", "#!/bin/sh\necho 4242\n" },
            { "squeue", "#!/bin/sh\nprintf '0|RUNNING\\n1|PENDING\\n'\n" }, { "sacct", "#!/bin/sh\nexit 1\n" } };
        for (const auto& [name, text] : tools) {
            const QString path = bin + u'/' + QLatin1String(name);
            QVERIFY(writeFile(path, text));
            QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        }
        const QByteArray path = qgetenv("PATH");
        auto restore = qScopeGuard([&] { qputenv("PATH", path); });

        qputenv("PATH", "/nowhere");
        {
            ClusterSweepDialog without(m_tmp.filePath(QStringLiteral("store2.sqlite")));
            without.setOutputFolder(m_tmp.filePath(QStringLiteral("array-none")));
            QVERIFY(without.writeArray());
            auto* submit = without.findChild<QPushButton*>(QStringLiteral("submit"));
            QVERIFY(!submit->isEnabled());
            QVERIFY(submit->toolTip().contains(QLatin1String("sbatch is not on the PATH")));
        }

        qputenv("PATH", bin.toLocal8Bit() + ':' + path);
        QSettings().remove(QString::fromLatin1(ClusterSweepDialog::kMatrixKey)); // a new dialog's two rows
        ClusterSweepDialog dialog(m_tmp.filePath(QStringLiteral("store2.sqlite")));
        dialog.setInterval(3600);
        dialog.setOutputFolder(m_tmp.filePath(QStringLiteral("array-submitted")));
        QSignalSpy refreshed(&dialog, &ClusterSweepDialog::refreshed);
        QVERIFY(dialog.writeArray()); // the two rows a new dialog starts with: b300-sim and mi325x-sim
        QVERIFY(refreshed.wait(10000));
        auto* submit = dialog.findChild<QPushButton*>(QStringLiteral("submit"));
        QVERIFY(submit->isEnabled());
        QSignalSpy submitted(&dialog, &ClusterSweepDialog::submitted);
        refreshed.clear();
        submit->click();
        QVERIFY(submitted.wait(30000));
        QCOMPARE(submitted.front().front().toStringList(), QStringList { QStringLiteral("4242") });
        QCOMPARE(readAll(m_tmp.filePath(QStringLiteral("array-submitted/jobs"))), QByteArray("4242\n"));
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(cell(dialog, 0, ClusterSweepDialog::State), QStringLiteral("running"));
        QCOMPARE(cell(dialog, 1, ClusterSweepDialog::State), QStringLiteral("pending"));
        QVERIFY2(dialog.summaryText().startsWith(QStringLiteral("Job 4242 · 2 tasks: 1 pending, 1 running")),
            qPrintable(dialog.summaryText()));
        dialog.resize(1366, 768);
        QVERIFY(dialog.grab().save((shotDir() + QStringLiteral("/clustersweep-submitted-1366x768.png"))));
    }
};

PARETOSCOPE_SUITE(TestClusterSweep)
#include "tests/support/testpaths.h"
#include "tst_clustersweep.moc"
