// The accuracy required, as a filter of the explorer (docs/evaluations.md), on the real InferenceX benchmarks and
// evaluations (offscreen): chosen in the filter panel, it leaves the groups below it or not evaluated out of the
// chart, the readout, the ladder and the plan, says how many it left out, travels with the view command and is kept
// across a restart. Each group's verdict is worked out here from the stored evaluations (groupAccuracy), not read back
// from the window.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QHelpEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QTableView>
#include <QTableWidget>
#include <set>

#include "core/analysis/accuracy.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/store/evaluationstore.h"
#include "tests/support/suite.h"
#include "tests/support/testserver.h"
#include "tests/support/testutil.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/filters/accuracycontrol.h"
#include "widgets/filters/filterpanel.h"
#include "widgets/plan/planmodel.h"
#include "widgets/plan/planpanel.h"
#include "widgets/readout/ladderpanel.h"
#include "widgets/readout/precisionpanel.h"
#include "widgets/readout/readoutpanel.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestAccuracyFilter : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<MainWindow> m_window;
    std::vector<StoredEvaluation> m_evaluations;

    bool waitShown()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::scopeShown);
        return spy.wait(20000);
    }

    AccuracyControl* control() const { return m_window->filters()->accuracy(); }

    // Chooses a task as a person does, from its box
    void chooseTask(const QString& task)
    {
        QComboBox* box = control()->taskBox();
        const int i = box->findData(task);
        QVERIFY2(i >= 0, qPrintable(task));
        box->setCurrentIndex(i);
        emit box->activated(i);
    }

    // Requires a minimum as a person does: the task from its box, the minimum typed, "Require at least" ticked (an
    // empty task: unticked, no requirement)
    void require(const QString& task, const QString& minimum)
    {
        if (task.isEmpty()) {
            control()->requireBox()->setChecked(false);
            return;
        }
        control()->minimumEdit()->setText(minimum);
        chooseTask(task);
        if (!control()->requireBox()->isChecked())
            control()->requireBox()->setChecked(true);
        else
            emit control()->minimumEdit()->editingFinished();
    }

    std::set<GroupKey> shownGroups() const
    {
        std::set<GroupKey> out;
        for (const GroupFrontier& g : m_window->scopeData()->frontiers)
            out.insert(g.key);
        return out;
    }

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("ParetoscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_accuracyfilter"));
        m_db = m_dir.filePath(QStringLiteral("store.sqlite"));
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY(store.ok());
        for (const char* file : { "inferencex-app-api/evaluations.json", "inferencex-app-api/benchmarks.json" })
            QVERIFY(importPath(**store, fixture(QString::fromLatin1(file)).toStdString(), {})[0].result.ok());
        m_evaluations = storedEvaluations(**store, "dsr1");
        QVERIFY(!m_evaluations.empty());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->resize(1366, 768);
        m_window->show();
        QVERIFY(waitShown());
        QVERIFY(m_window->filters()->selectScope(QStringLiteral("dsr1"), {}, 8192, 1024));
        for (int i = 0; i < 5 && m_window->scopeData()->scope.isl.value_or(0) != 8192; ++i)
            QVERIFY(waitShown());
    }

    // GSM8K >= 95%: exactly the groups whose latest GSM8K is 95% or more stay, in the scope and in the readout; the
    // panel says how many left and why; the ladder shows the accuracy column; off brings every group back
    void theGroupsBelowItOrNotEvaluatedLeave()
    {
        const std::set<GroupKey> before = shownGroups();
        std::set<GroupKey> meet;
        std::size_t below = 0, unevaluated = 0;
        for (const GroupKey& g : before) {
            const auto a = groupAccuracy(m_evaluations, g, "gsm8k");
            if (!a)
                ++unevaluated;
            else if (a->accuracy.value >= 0.95)
                meet.insert(g);
            else
                ++below;
        }
        QVERIFY(!meet.empty() && below > 0 && unevaluated > 0);
        QVERIFY(control()->taskBox()->isEnabled()); // the model has evaluations: the task can be chosen
        require(QStringLiteral("gsm8k"), QStringLiteral("95%"));
        QVERIFY(waitShown());
        QCOMPARE(shownGroups(), meet);
        std::set<std::pair<std::string, std::string>> bounds; // the speed-of-light lines follow the groups left
        for (const GroupKey& g : meet)
            bounds.insert({ g.hardware, g.precision });
        for (const SolLine& l : m_window->scopeData()->speedOfLight)
            QVERIFY2(bounds.contains({ l.hardware, l.precision }), l.hardware.c_str());
        QTRY_VERIFY(m_window->chartPanel()->chart());
        for (const ChartSol& l : m_window->chartPanel()->chart()->chartData().speedOfLight)
            QVERIFY2(bounds.contains({ l.hardware, l.precision }), l.hardware.c_str());
        for (const HardwareLadder& l : m_window->readout()->model()->readings())
            for (const LadderRow& r : l.rows)
                if (r.group())
                    QVERIFY(meet.contains(*r.group()));
        QCOMPARE(control()->outcome().toStdString(),
            std::to_string(below + unevaluated) + " of " + std::to_string(before.size())
                + " groups left out by GSM8K >= 95%: " + std::to_string(below) + " below it, "
                + std::to_string(unevaluated) + " not evaluated");
        // each group's legend entry says its accuracy: every group left was evaluated at 95% or more
        QTRY_VERIFY(m_window->chartPanel()->chart() && m_window->chartPanel()->chart()->groupCount() == meet.size());
        for (std::size_t i = 0; i < meet.size(); ++i) {
            const FrontierChart* chart = m_window->chartPanel()->chart();
            const auto a = groupAccuracy(m_evaluations, chart->chartData().series[i].key, "gsm8k");
            QVERIFY(a);
            QCOMPARE(chart->groupAccuracy(i).toStdString(), accuracyText("gsm8k", a->accuracy));
        }
        QTableView* ladder = m_window->ladder()->findChild<QTableView*>();
        QVERIFY(ladder && !ladder->isColumnHidden(LadderModel::Accuracy));
        QCOMPARE(
            ladder->model()->headerData(LadderModel::Accuracy, Qt::Horizontal).toString(), QStringLiteral("GSM8K"));
        // the view command carries it, as the CLI reads it
        const auto view = m_window->currentView();
        QVERIFY(view && view->request.accuracy);
        QCOMPARE(accuracyRequirementText(*view->request.accuracy), std::string("gsm8k:0.95"));
        // keeping the groups not evaluated brings them back, and only them
        control()->keepUnevaluatedBox()->setChecked(true);
        QVERIFY(waitShown());
        QCOMPARE(shownGroups().size(), meet.size() + unevaluated);
        control()->keepUnevaluatedBox()->setChecked(false);
        QVERIFY(waitShown());
        // off: every group again, and no note
        require(QString(), QString());
        QVERIFY(waitShown());
        QCOMPARE(shownGroups(), before);
        QVERIFY(control()->outcome().isEmpty());
    }

    // A minimum that does not read changes nothing and says why beside the box
    void aBadMinimumChangesNothing()
    {
        const std::set<GroupKey> before = shownGroups();
        QSignalSpy spy(m_window.get(), &MainWindow::scopeShown);
        require(QStringLiteral("gsm8k"), QStringLiteral("ninety"));
        QVERIFY(!spy.wait(300));
        QVERIFY(!control()->requirement());
        QCOMPARE(shownGroups(), before);
        QLabel* reason = nullptr;
        for (QLabel* l : control()->findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains(QStringLiteral("ninety")))
                reason = l;
        QVERIFY(reason);
        require(QString(), QString());
    }

    // The plan sizes only on groups that meet it: every hardware read is of a group that does, and one with no
    // evaluated group says the accuracy is not met
    void thePlanSizesOnTheGroupsThatMeetIt()
    {
        require(QStringLiteral("gsm8k"), QStringLiteral("95%"));
        QVERIFY(waitShown());
        m_window->showPage(QStringLiteral("plan"));
        PlanPanel* plan = m_window->plan();
        QTRY_VERIFY_WITH_TIMEOUT(!plan->plan().hardware.empty(), 20000);
        // the plan of the scope with the requirement: a hardware without any group evaluated is said so
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(plan->plan().hardware.begin(), plan->plan().hardware.end(),
                                     [](const HardwarePlan& h) { return h.status == PlanStatus::AccuracyNotMet; }),
            20000);
        QTableView* table = plan->findChild<QTableView*>();
        QVERIFY(table && !table->isColumnHidden(PlanModel::Accuracy));
        for (std::size_t r = 0; r < plan->plan().hardware.size(); ++r) {
            const HardwarePlan& h = plan->plan().hardware[r];
            if (!h.read())
                continue;
            const auto a = groupAccuracy(m_evaluations, *h.group, "gsm8k");
            QVERIFY2(a && a->accuracy.value >= 0.95, h.hardware.c_str());
            // the accuracy column says the group's sized-on configuration's accuracy
            QVERIFY(h.accuracy && h.accuracy->accuracy.value >= 0.95);
            QCOMPARE(table->model()->index(int(r), PlanModel::Accuracy).data().toString(),
                QStringLiteral("%1% \u00b1 %2")
                    .arg(100 * h.accuracy->accuracy.value, 0, 'f', 1)
                    .arg(100 * h.accuracy->accuracy.standardError, 0, 'f', 1));
        }
        m_window->showPage(QStringLiteral("ladder"));
    }

    // The Precision tab: MI355X's FP4 and FP8 rows carry the accuracy of their groups read (worked out here with
    // groupAccuracy), and the FP4 row says "within error" exactly when the two intervals of two standard errors
    // overlap; it reads every group of the scope, the accuracy required or not
    void thePrecisionTabSaysWhatFp4Costs()
    {
        QVERIFY(m_window->showPage(QStringLiteral("precision")));
        PrecisionPanel* panel = m_window->findChild<PrecisionPanel*>();
        QTableWidget* table = panel->table();
        QTRY_VERIFY(table->rowCount() > 0);
        // FP4 alone by default (the filter panel's default precision): the tab says how to compare
        QVERIFY2(panel->heading().contains(QStringLiteral("Tick another precision")), qPrintable(panel->heading()));
        QListWidgetItem* fp8 = nullptr;
        for (QListWidget* l : m_window->filters()->findChildren<QListWidget*>())
            for (int r = 0; r < l->count(); ++r)
                if (l->item(r)->text() == u"FP8")
                    fp8 = l->item(r);
        QVERIFY(fp8);
        fp8->setCheckState(Qt::Checked);
        QVERIFY(waitShown());
        int fp4 = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 0)->text() == u"MI355X")
                fp4 = r;
        QVERIFY(fp4 >= 0);
        QCOMPARE(table->item(fp4, 1)->text(), QStringLiteral("FP4"));
        QCOMPARE(table->item(fp4 + 1, 1)->text(), QStringLiteral("FP8"));
        std::optional<GroupAccuracy> accuracies[2];
        for (int i = 0; i < 2; ++i) {
            const QStringList group = table->item(fp4 + i, 3)->text().split(QStringLiteral(" · "));
            QVERIFY(group.size() >= 2);
            const GroupKey key { "mi355x", group[0] == u"ATOM" ? "atom" : group[0].toLower().toStdString(),
                i == 0 ? "fp4" : "fp8", group.size() > 2 ? group[2].toLower().toStdString() : "none" };
            accuracies[i] = groupAccuracy(m_evaluations, key, "gsm8k");
            QVERIFY2(accuracies[i], (key.engine + " " + key.specDecoding).c_str());
            QCOMPARE(table->item(fp4 + i, 5)->text().toStdString(), accuracyText("gsm8k", accuracies[i]->accuracy));
        }
        const bool within = withinError(accuracies[0]->accuracy, accuracies[1]->accuracy);
        QCOMPARE(table->item(fp4, 6)->text().contains(QStringLiteral("(within error)")), within);
        m_window->showPage(QStringLiteral("ladder"));
    }

    // The task box chooses the task whose accuracy is shown, with or without a requirement: evaluations on a
    // second task imported through the window (as a drop does) are listed, and choosing it puts that task's accuracy
    // (worked out here from the stored rows) on every reading of the readout and in the view command
    void theTaskBoxChoosesTheAccuracyShown()
    {
        require(QString(), QString());
        QFile fixtureFile(fixture(QStringLiteral("inferencex-app-api/evaluations.json")));
        QVERIFY(fixtureFile.open(QIODevice::ReadOnly));
        QJsonArray rows;
        for (const QJsonValue v : QJsonDocument::fromJson(fixtureFile.readAll()).array()) {
            QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("model")).toString() != u"dsr1")
                continue;
            o[QStringLiteral("task")] = QStringLiteral("mmlu");
            o[QStringLiteral("id")] = QStringLiteral("mmlu-") + o.value(QStringLiteral("id")).toString();
            QJsonObject m = o.value(QStringLiteral("metrics")).toObject();
            for (const char* k : { "em_strict", "em_flexible" })
                m[QLatin1String(k)] = m.value(QLatin1String(k)).toDouble() * 0.8; // another task, other values
            o[QStringLiteral("metrics")] = m;
            rows.append(o);
        }
        QVERIFY(rows.size() > 10);
        const QString file = m_dir.filePath(QStringLiteral("mmlu.json"));
        QVERIFY(writeFile(file, QJsonDocument(rows).toJson()));
        // by URL, as File > Import from the InferenceX API does (a local server's route), then the same file dropped:
        // every row already stored
        TestServer server("[]");
        server.serveFile("/api/v1/evaluations", file.toStdString());
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importPaths({ QString::fromStdString(server.url("/api/v1/evaluations")) });
        QVERIFY(done.wait(20000));
        QVERIFY2(m_window->lastImportResults().value(0).ok, qPrintable(m_window->lastImportResults().value(0).message));
        QCOMPARE(m_window->lastImportResults().value(0).message,
            QStringLiteral("%1 evaluations imported (inferencex-evaluations), 0 already stored").arg(rows.size()));
        m_window->importPaths({ file });
        QVERIFY(done.wait(20000));
        QCOMPARE(m_window->lastImportResults().value(0).message,
            QStringLiteral("0 evaluations imported (inferencex-evaluations), %1 already stored").arg(rows.size()));
        QTRY_VERIFY_WITH_TIMEOUT(control()->taskBox()->findData(QStringLiteral("mmlu")) >= 0, 20000);
        auto store = RunStore::open(m_db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(store.ok());
        const std::vector<StoredEvaluation> stored = storedEvaluations(**store, "dsr1");
        chooseTask(QStringLiteral("mmlu"));
        QVERIFY(waitShown());
        QCOMPARE(m_window->scopeData()->accuracyTask, std::string("mmlu"));
        QVERIFY(!control()->requirement()); // shown, not required: every group stays
        std::size_t evaluated = 0;
        for (const HardwareLadder& l : m_window->readout()->model()->readings())
            for (const LadderRow& r : l.rows) {
                if (!r.group()) // of the reading chosen
                    continue;
                QCOMPARE(r.accuracyTask, std::string("mmlu"));
                const auto a = groupAccuracy(stored, *r.group(), "mmlu", m_window->scopeData()->scope.asOf);
                QCOMPARE(r.accuracy.has_value(), a.has_value());
                if (a) {
                    QCOMPARE(r.accuracy->accuracy.value, a->accuracy.value);
                    ++evaluated;
                }
            }
        QVERIFY(evaluated > 0);
        const auto view = m_window->currentView();
        QVERIFY(view);
        QCOMPARE(view->request.accuracyTask, std::string("mmlu"));
        // a requirement is on the task shown
        require(QStringLiteral("gsm8k"), QStringLiteral("95%"));
        QVERIFY(waitShown());
        QCOMPARE(m_window->scopeData()->accuracyTask, std::string("gsm8k"));
    }

    // A run's tooltip on the chart says the accuracy of its group on the task shown, read on the evaluated
    // configuration closest to the run's (worked out here with groupAccuracy and the run's own configuration)
    void aRunsTooltipSaysItsAccuracy()
    {
        QTRY_VERIFY_WITH_TIMEOUT(
            m_window->chartPanel()->chart() && m_window->chartPanel()->chart()->groupCount() >= 1, 10000);
        FrontierChart* chart = m_window->chartPanel()->chart();
        const ChartSeries& series = chart->chartData().series.front();
        QVERIFY(!series.frontier.empty());
        const Point knot = series.frontier.front();
        const QPointF at = chart->mapToPosition(QPointF(knot.x, knot.y), chart->anchor());
        FrontierView* view = m_window->chartPanel()->view();
        QSignalSpy arrived(view, &FrontierView::runTextArrived);
        const QPoint inView = view->mapFromScene(chart->mapToScene(at));
        QHelpEvent over(QEvent::ToolTip, inView, view->viewport()->mapToGlobal(inView));
        QApplication::sendEvent(view->viewport(), &over);
        QVERIFY(arrived.wait(10000));
        auto store = RunStore::open(m_db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(store.ok());
        const auto runs = (*store)->runs({ arrived.at(0).at(0).toLongLong() });
        QCOMPARE(runs.size(), std::size_t(1));
        const RunRecord& r = runs.front().record;
        const auto a = groupAccuracy(storedEvaluations(**store, "dsr1"), series.key, "gsm8k",
            m_window->scopeData()->scope.asOf, ConfigurationHint { r.disaggregated, r.tp, r.ep, r.dpAttention });
        QVERIFY(a); // the requirement in force keeps only evaluated groups
        const QString text = view->hoveredRunText();
        QVERIFY2(text.contains(QString::fromStdString(accuracyText("gsm8k", a->accuracy))), qPrintable(text));
        QVERIFY2(text.contains(a->sameConfiguration ? QStringLiteral("this configuration")
                                                    : QStringLiteral("another configuration of the group")),
            qPrintable(text));
    }

    // Kept across a restart, as the other filters are
    void theRequirementIsKept()
    {
        QVERIFY(control()->requirement());
        m_window->close();
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY(store.ok());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        m_window->show();
        QVERIFY(waitShown());
        for (int i = 0; i < 5 && !m_window->scopeData()->accuracyFilter; ++i)
            QVERIFY(waitShown());
        QVERIFY(control()->requirement());
        QCOMPARE(accuracyRequirementText(*control()->requirement()), std::string("gsm8k:0.95"));
        QCOMPARE(control()->task(), QStringLiteral("gsm8k"));
        QVERIFY(m_window->scopeData()->accuracyFilter);
    }
};

PARETOSCOPE_SUITE(TestAccuracyFilter)
#include "tst_accuracyfilter.moc"
