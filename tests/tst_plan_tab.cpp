// The explorer's Plan tab (offscreen) on a crafted store: an 8-GPU B300 configuration and a disaggregated 8P+8D
// MI325X one. Its table against GPUs, nodes, power and dollars worked out by hand from the crafted runs and the
// shipped power and price tables; nothing computed while the tab is hidden; the slider moving the plan; the table
// equal to `paretoscope-cli plan --format json` run with the tab's own "Copy as command" line (a peer
// implementation); CSV export; a TCO model edited in the panel (price by hand, bad values refused, a command only
// once saved); an empty scope's message.
#include <QtTest>

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QProcess>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <cmath>

#include "core/analysis/plan.h"
#include "core/analysis/viewoptions.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/output/planreports.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/common/numberbox.h"
#include "widgets/common/paintnextturn.h"
#include "widgets/filters/filterpanel.h"
#include "widgets/filters/slolimits.h"
#include "widgets/plan/planmodel.h"
#include "widgets/plan/planpanel.h"
#include "widgets/plan/tcoeditor.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

struct PlanRun {
    const char* hardware;
    int concurrency;
    double tput; ///< total tok/s/GPU
    double ttft; ///< median, seconds
    bool disaggregated;
};

// interactivity = 400 / concurrency: concurrency 8 stands at 50 tok/s/user, 4 at 100, 16 at 25
const std::vector<PlanRun> kPlanRuns {
    { "b300", 4, 500, 0.5, false },
    { "b300", 8, 900, 1.0, false },
    { "b300", 16, 1200, 2.0, false },
    { "mi325x", 4, 200, 3.0, true },
    { "mi325x", 8, 300, 4.0, true },
    { "mi325x", 16, 380, 6.0, true },
};

QJsonObject planRecordJson(const PlanRun& c)
{
    QJsonObject o { { QStringLiteral("schema"), QStringLiteral("paretoscope.run/1") },
        { QStringLiteral("model"), QStringLiteral("m") },
        { QStringLiteral("hardware"), QString::fromLatin1(c.hardware) },
        { QStringLiteral("engine"), QStringLiteral("vllm") }, { QStringLiteral("precision"), QStringLiteral("fp4") },
        { QStringLiteral("spec_decoding"), QStringLiteral("none") }, { QStringLiteral("isl"), 1024 },
        { QStringLiteral("osl"), 1024 }, { QStringLiteral("concurrency"), c.concurrency },
        { QStringLiteral("interactivity_tok_s_user"), 400.0 / c.concurrency },
        { QStringLiteral("tput_per_gpu_tok_s"), c.tput }, { QStringLiteral("output_tput_per_gpu_tok_s"), c.tput / 2 },
        { QStringLiteral("ttft_median_s"), c.ttft }, { QStringLiteral("run_date"), QStringLiteral("2026-03-01") } };
    if (c.disaggregated) {
        o[QStringLiteral("disaggregated")] = true;
        o[QStringLiteral("prefill_gpus")] = 8;
        o[QStringLiteral("decode_gpus")] = 8;
        o[QStringLiteral("gpus")] = 16;
    } else {
        o[QStringLiteral("tp")] = 8;
        o[QStringLiteral("gpus")] = 8;
    }
    return o;
}

// The shipped figures the hand computation uses (resources/hardware_power.json, pricing_tiers.json "hyperscaler").
constexpr double kB300Kw = 1.90, kMi325xKw = 1.69;
constexpr double kB300Price = 2.26, kMi325xPrice = 1.10;

const HardwarePlan* find(const Plan& p, const char* hw)
{
    for (const HardwarePlan& h : p.hardware)
        if (h.hardware == hw)
            return &h;
    return nullptr;
}

// A hardware's status in a plan; NoData where the plan does not list it.
PlanStatus statusOf(const Plan& p, const char* hw)
{
    const HardwarePlan* h = find(p, hw);
    return h ? h->status : PlanStatus::NoData;
}

// Counts the events of one type its watched objects receive.
class EventCounter : public QObject {
public:
    EventCounter(QEvent::Type type, int* count)
        : m_type(type)
        , m_count(count)
    {
    }
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == m_type)
            ++*m_count;
        return false;
    }

private:
    QEvent::Type m_type;
    int* m_count;
};

} // namespace

class TestPlanTab : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    PlanPanel* panel() const { return m_window->plan(); }
    QString dbPath() const { return m_dir.filePath(QStringLiteral("store.sqlite")); }

    // `paretoscope-cli` run with the words of a command line plus extra options: its stdout and stderr
    QByteArray runCli(const std::string& line, const QStringList& extra, int* exitCode = nullptr)
    {
        QByteArray err;
        const QByteArray out = runCommandLine(line, extra, exitCode, &err);
        return out + err;
    }

    // The tab's plan as JSON equals the CLI's answer to the tab's own command line.
    void compareWithCli()
    {
        const auto line = m_window->planCommandLine();
        QVERIFY2(line.ok(), line.ok() ? "" : line.error().c_str());
        int code = -1;
        const QByteArray out = runCli(*line, { QStringLiteral("--format"), QStringLiteral("json") }, &code);
        QVERIFY2(code == 0, out.constData());
        const QJsonDocument cli = QJsonDocument::fromJson(out);
        const QJsonDocument tab = QJsonDocument::fromJson(QByteArray::fromStdString(planJson(panel()->plan())));
        QVERIFY(cli.isObject());
        QCOMPARE(tab.object(), cli.object());
    }

    bool waitPlan(const std::function<void()>& action)
    {
        QSignalSpy spy(panel(), &PlanPanel::planShown);
        action();
        return !spy.isEmpty() || spy.wait(10000);
    }

private slots:
    void initTestCase()
    {
        QJsonArray runs;
        for (const PlanRun& c : kPlanRuns)
            runs.append(planRecordJson(c));
        std::string error;
        m_window = windowOnRecords(m_dir, "tst_plan_tab", runs, error);
        QVERIFY2(m_window, error.c_str());
        m_window->readout()->setTarget(50);
        QVERIFY(m_window->currentPanel() == m_window->ladder());
    }

    // Behind another tab the panel computes nothing; shown, it plans 100,000 tok/s at 50 tok/s/user with 25%
    // headroom as worked out by hand.
    void plansByHandWhenShown()
    {
        panel()->setDemand(100000, DemandUnit::TokPerS);
        for (double t : { 60.0, 70.0, 50.0 })
            m_window->readout()->setTarget(t);
        QCOMPARE(panel()->computations(), 0);
        QVERIFY(waitPlan([&] { m_window->showPanel(panel()); }));
        const Plan& p = panel()->plan();
        QCOMPARE(p.target, 50.0);
        const HardwarePlan* b300 = find(p, "b300");
        const HardwarePlan* mi = find(p, "mi325x");
        QVERIFY(b300 && mi);
        // B300: R = 900 at the knot of concurrency 8 (50 tok/s/user), replicas of 8 GPUs, 8 per node
        QCOMPARE(b300->status, PlanStatus::Ok);
        QCOMPARE(*b300->tputPerGpu, 900.0);
        QVERIFY(std::abs(b300->gpusExact - 125000.0 / 900) < 1e-9);
        QCOMPARE(b300->gpus, 144LL); // ceil(138.9 / 8) = 18 replicas
        QCOMPARE(b300->replicas, 18LL);
        QCOMPARE(b300->nodes, 18LL);
        QVERIFY(std::abs(*b300->powerKw - 144 * kB300Kw) < 1e-9);
        QVERIFY(std::abs(*b300->costPerHour - 144 * kB300Price) < 1e-9);
        QVERIFY(std::abs(*b300->costPerMonth - 144 * kB300Price * 730) < 1e-6);
        QVERIFY(std::abs(*b300->energyJPerToken - kB300Kw * 1000 / 900) < 1e-12);
        // MI325X 8P + 8D: R = 300, replicas of 16 GPUs spanning two 8-GPU nodes each
        QCOMPARE(*mi->tputPerGpu, 300.0);
        QCOMPARE(mi->replicaGpus, 16);
        QCOMPARE(mi->gpus, 432LL); // ceil(416.7 / 16) = 27 replicas
        QCOMPARE(mi->nodes, 54LL);
        QVERIFY(std::abs(*mi->powerKw - 432 * kMi325xKw) < 1e-9);
        QVERIFY(std::abs(*mi->costPerHour - 432 * kMi325xPrice) < 1e-9);
        QVERIFY(b300->cheapest && !mi->cheapest); // 325.44 $/h against 475.20
        // the table says it: the cheapest row first in bold, the configuration it is deployed as
        PlanModel* m = panel()->model();
        QCOMPARE(m->rowCount(), 2);
        QVERIFY(m->data(m->index(0, PlanModel::Hardware)).toString().contains(QStringLiteral("cheapest")));
        QCOMPARE(m->data(m->index(0, PlanModel::Gpus), Qt::UserRole).toLongLong(), 144LL);
        QCOMPARE(m->data(m->index(1, PlanModel::Config)).toString(), QStringLiteral("8P+8D at concurrency 8"));
        QVERIFY(m->data(m->index(0, PlanModel::Config)).toString().startsWith(QStringLiteral("TP8")));
        QCOMPARE(m->data(m->index(0, PlanModel::Status)).toString(), QStringLiteral("measured at concurrency 8"));
    }

    // Frontiers delivered (a scope read again with the Plan page in front): the table is set at once, the cost of
    // speed worked out a turn later, put in the chart a turn after that and painted a turn after its layout, so that
    // they do not stand as one turn of the event loop; a change in between (the slider) plans at once, and the turn
    // asked for stands down.
    void aDeliveredPlansCurveFollowsItsTable()
    {
        auto store = RunStore::open(m_window->storePath().toStdString(), StoreAccess::ReadOnly);
        QVERIFY(store.ok());
        const auto frontiers
            = std::make_shared<const PlanFrontiers>(loadPlanFrontiers(**store, m_window->scopeData()->scope));
        QSignalSpy shown(panel(), &PlanPanel::planShown);
        panel()->setFrontiers(frontiers);
        QCOMPARE(panel()->model()->rowCount(), 2); // the table at once
        QVERIFY(panel()->curve().empty());
        QVERIFY(!panel()->chart()->updatesEnabled());
        QCOMPARE(shown.count(), 0);
        QVERIFY(shown.wait(10000));
        QVERIFY(!panel()->curve().empty()); // planShown comes with the curve
        QVERIFY(find(panel()->curve().front(), "b300"));
        QVERIFY(!panel()->chart()->updatesEnabled()); // painted a turn after Qt Charts has laid the curve out
        QTRY_VERIFY(panel()->chart()->updatesEnabled());
        // delivered again, then the slider before the curve's turn: planned at once, whole
        panel()->setFrontiers(frontiers);
        shown.clear();
        m_window->readout()->setTarget(60);
        QCOMPARE(shown.count(), 1);
        QVERIFY(!panel()->curve().empty());
        QVERIFY(panel()->chart()->updatesEnabled());
        QTest::qWait(20);
        QCOMPARE(shown.count(), 1); // the turn asked for by the delivery stood down
        QVERIFY(waitPlan([&] { m_window->readout()->setTarget(50); }));
    }

    // The page brought to the front is painted in two turns: the table and inputs, then the tabs under them (the
    // page whole stood 15 to 24 ms); a part held already, by its owner or by a hold not ended, is not held again.
    void theTabsUnderThePlanArePaintedATurnAfterThePage()
    {
        QWidget* lower = panel()->chart();
        while (lower && !qobject_cast<QTabWidget*>(lower))
            lower = lower->parentWidget();
        QVERIFY(lower);
        m_window->showPanel(m_window->ladder()); // another page in front
        QTRY_VERIFY(lower->updatesEnabled());
        m_window->showPanel(panel());
        QVERIFY(!lower->updatesEnabled()); // a turn after the page's own paint
        paintNextTurn(lower); // held already: nothing more
        QTRY_VERIFY(lower->updatesEnabled());
        QWidget held(panel()); // a part its owner holds stays held
        held.setUpdatesEnabled(false);
        paintNextTurn(&held);
        QTest::qWait(20);
        QVERIFY(!held.updatesEnabled());
    }

    // The page's scroll bars, shown on a small window and laid out again while the page was hidden, are brought up to
    // date before the page's first paint when it comes to the front on a larger one. Qt hides them by a queued call,
    // and a chart's scene may have the window painted before it runs (the History chart's did): they were painted,
    // 2 to 6 ms on a 1920x1080 screen, and then taken away.
    void scrollBarsOfAHiddenPageAreNotPaintedStale()
    {
        auto* scroll = panel()->findChild<QScrollArea*>();
        QVERIFY(scroll);
        const QSize was = m_window->size();
        m_window->showPanel(panel());
        QTest::qWait(20);
        // content a little larger than the page: both bars shown
        scroll->widget()->setMinimumSize(scroll->viewport()->size() + QSize(100, 100));
        QTRY_VERIFY(scroll->verticalScrollBar()->isVisible() && scroll->horizontalScrollBar()->isVisible());
        m_window->showPanel(m_window->ladder());
        m_window->resize(was + QSize(300, 300)); // the hidden page now fits it
        QTest::qWait(50);
        int painted = 0;
        EventCounter counter(QEvent::Paint, &painted);
        scroll->horizontalScrollBar()->installEventFilter(&counter);
        scroll->verticalScrollBar()->installEventFilter(&counter);
        m_window->showPanel(panel());
        m_window->repaint(); // as a chart's scene has it: the window's update sent at once
        QCOMPARE(painted, 0);
        QVERIFY(!scroll->verticalScrollBar()->isVisible());
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        scroll->removeEventFilter(&counter);
        scroll->widget()->setMinimumSize(0, 0);
        m_window->resize(was);
        QTest::qWait(20); // the Plan page in front, as before
    }

    // The slider moves the plan: at 100 tok/s/user B300 reads the knot of concurrency 4 (500 tok/s/GPU); the cost
    // of speed keeps its lines and moves its target line.
    void followsTheSlider()
    {
        const int before = panel()->computations();
        const auto lines = panel()->chart()->lines();
        QVERIFY(waitPlan([&] { m_window->readout()->setTarget(100); }));
        QVERIFY(panel()->computations() > before);
        const HardwarePlan* b300 = find(panel()->plan(), "b300");
        QCOMPARE(*b300->tputPerGpu, 500.0);
        QCOMPARE(b300->gpus, 256LL); // 125,000 / 500 = 250 -> 32 replicas of 8
        QCOMPARE(panel()->chart()->lines(), lines);
        // each point of the curve is the plan at its target
        for (const Plan& p : panel()->curve())
            if (const HardwarePlan* h = find(p, "b300"); h && h->status == PlanStatus::Ok)
                QVERIFY(std::abs(h->gpusExact - 125000 / *h->tputPerGpu) < 1e-9);
        QVERIFY(waitPlan([&] { m_window->readout()->setTarget(50); }));
    }

    void equalsTheCli()
    {
        compareWithCli();
        // other units, headroom and a custom price too
        panel()->setDemand(2000, DemandUnit::Users);
        panel()->setHeadroom(0.5);
        panel()->setCostModel(PlanPanel::CostModel::CustomPrice);
        panel()->setCustomPrice(3.25);
        const HardwarePlan* b300 = find(panel()->plan(), "b300");
        // 2,000 users at 50 tok/s/user = 100,000 output tok/s, read on the output frontier (450 at the knot)
        QCOMPARE(panel()->plan().metric, TputMetric::Output);
        QVERIFY(std::abs(b300->gpusExact - 100000 * 1.5 / 450) < 1e-9);
        QVERIFY(std::abs(*b300->usdPerGpuHour - 3.25) < 1e-12);
        compareWithCli();
        panel()->setDemand(100000, DemandUnit::TokPerS);
        panel()->setHeadroom(0.25);
        panel()->setCostModel(PlanPanel::CostModel::ReadoutPrice);
    }

    // File > Export report... writes the view on screen with the tab's plan: its readings are the CLI's `ladder` for
    // the window's own view command at the readout's target, and its plan sizes each hardware as the panel does.
    void exportsAReport()
    {
        const QString path = m_dir.filePath(QStringLiteral("report.html"));
        QSignalSpy done(m_window.get(), &MainWindow::reportExported);
        m_window->exportReport(path);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.at(0).at(1).toString(), QString());
        const QString html = QString::fromUtf8(readAll(path));
        for (const char* section : { "question", "frontier", "readout", "ladder", "plan", "history", "reproduce" })
            QVERIFY2(html.contains(QStringLiteral("<section id=\"%1\">").arg(QLatin1String(section))), section);
        // B300's reading at 50 tok/s/user, as the CLI prints it for the window's view
        auto view = m_window->currentView();
        QVERIFY(view.ok());
        view->request.targets = { m_window->readout()->target() };
        int code = -1;
        const QByteArray out = runCli(viewCommand(*view),
            { QStringLiteral("--db"), dbPath(), QStringLiteral("--format"), QStringLiteral("json") }, &code);
        QCOMPARE(code, 0);
        const double b300 = QJsonDocument::fromJson(out)
                                .object()[QStringLiteral("b300")][0][QStringLiteral("tput_per_gpu")]
                                .toDouble();
        QVERIFY(b300 > 0);
        const QString cell = QLocale(QLocale::English).toString(qRound64(b300));
        QVERIFY2(html.contains(QStringLiteral("<td>B300</td><td class=\"n\">%1</td>").arg(cell)), qPrintable(cell));
        // the plan's GPUs, as the panel sized them
        const HardwarePlan* sized = find(panel()->plan(), "b300");
        QVERIFY(sized && sized->sized());
        const QRegularExpression row(QStringLiteral("<tr><td>B300[^<]*</td><td>[^<]*</td><td class=\"n\">%1</td>")
                                         .arg(QLocale(QLocale::English).toString(sized->gpus)));
        QVERIFY2(
            row.match(html, html.indexOf(QStringLiteral("id=\"plan-table\""))).hasMatch(), qPrintable(row.pattern()));
        // the same as a PDF, for a name ending .pdf
        done.clear();
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        m_window->exportReport(pdf);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.at(0).at(1).toString(), QString());
        QVERIFY(readAll(pdf).startsWith("%PDF-1.4"));
        QProcess text;
        text.start(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") });
        QVERIFY(text.waitForFinished(30000) && text.exitCode() == 0);
        const QByteArray words = text.readAllStandardOutput();
        QVERIFY(words.contains("The plan") && words.contains("The readings at 50 tok/s/user"));
        // a folder that does not exist: the error says so, and nothing is written
        done.clear();
        const QString nowhere = m_dir.filePath(QStringLiteral("nowhere/report.html"));
        m_window->exportReport(nowhere);
        QVERIFY(done.wait(20000));
        QVERIFY(!done.at(0).at(1).toString().isEmpty());
        QVERIFY(!QFile::exists(nowhere));
    }

    void exportsCsv()
    {
        const QString path = m_dir.filePath(QStringLiteral("plan.csv"));
        QVERIFY(m_window->exportPlanCsv(path).ok());
        QCOMPARE(readAll(path).toStdString(), planCsv(panel()->plan()));
        QVERIFY(m_window->exportPlanPng(m_dir.filePath(QStringLiteral("plan.png"))).ok());
        QVERIFY(QImage(m_dir.filePath(QStringLiteral("plan.png"))).width() > 300);
    }

    // File > Export plan as CSV with another tab in front, after the scope changed: the plan is made again for the
    // scope in view, then written. It wrote the plan on record, of the scope before the change (a run deleted, a
    // hardware filtered out).
    void exportedPlanIsOfTheScopeInView()
    {
        if (m_window->currentPanel() != panel())
            QVERIFY(waitPlan([&] { m_window->showPanel(panel()); }));
        QVERIFY(find(panel()->plan(), "mi325x"));
        m_window->showPanel(m_window->ladder());
        QListWidgetItem* mi325x = nullptr;
        for (QListWidget* l : m_window->filters()->findChildren<QListWidget*>())
            for (int r = 0; r < l->count(); ++r)
                if (l->item(r)->text() == QStringLiteral("MI325X"))
                    mi325x = l->item(r);
        QVERIFY(mi325x);
        QSignalSpy shown(m_window.get(), &MainWindow::scopeShown);
        mi325x->setCheckState(Qt::Unchecked);
        QVERIFY(shown.wait(10000));
        QVERIFY(find(panel()->plan(), "mi325x")); // the plan on record is the one before
        QSignalSpy exported(m_window.get(), &MainWindow::csvExported);
        const QString path = m_dir.filePath(QStringLiteral("current-plan.csv"));
        m_window->exportCurrentPlanCsv(path);
        QVERIFY(!exported.isEmpty() || exported.wait(10000));
        QCOMPARE(exported.front().at(1).toString(), QString());
        QVERIFY(!find(panel()->plan(), "mi325x"));
        QCOMPARE(readAll(path).toStdString(), planCsv(panel()->plan()));
        QVERIFY(find(panel()->plan(), "b300"));
        // with nothing changed since, the plan on record is written at once
        exported.clear();
        m_window->exportCurrentPlanCsv(path);
        QCOMPARE(exported.size(), 1);
        shown.clear();
        mi325x->setCheckState(Qt::Checked);
        QVERIFY(shown.wait(10000));
        QVERIFY(waitPlan([&] { m_window->showPanel(panel()); })); // as the tests after expect
    }

    // A TCO model priced by hand; an edit in the panel reprices; a negative value is refused; the command line
    // needs the edits saved.
    void tcoModelEditedInThePanel()
    {
        const QString tco = m_dir.filePath(QStringLiteral("tco.json"));
        QVERIFY(writeFile(tco, R"({"source": "test", "hardware": {
            "b300": {"capex_per_gpu_usd": 43800, "amortization_years": 5, "power_basis": "all_in", "power_kw": 2,
                     "electricity_usd_per_kwh": 0.1, "pue": 1.5, "other_opex_usd_per_gpu_hour": 0.3},
            "mi325x": {"capex_per_gpu_usd": 21900, "amortization_years": 5, "power_basis": "it", "power_kw": 1,
                     "electricity_usd_per_kwh": 0.1, "pue": 1.5, "other_opex_usd_per_gpu_hour": 0.3}}})"));
        QVERIFY(m_window->openTcoFile(tco).ok());
        // 43,800 / (5 x 8,760) = 1.00 + 2 kW x 0.1 (all-in: no PUE) + 0.3 = 1.50 $/GPU/hr
        QVERIFY(std::abs(*find(panel()->plan(), "b300")->usdPerGpuHour - 1.5) < 1e-12);
        // 21,900 / 43,800 = 0.50 + 1 kW x 1.5 x 0.1 + 0.3 = 0.95
        QVERIFY(std::abs(*find(panel()->plan(), "mi325x")->usdPerGpuHour - 0.95) < 1e-12);
        compareWithCli();
        TcoEditor* editor = panel()->findChild<TcoEditor*>();
        QVERIFY(editor);
        int row = -1;
        for (int r = 0; r < editor->rowCount(); ++r)
            if (editor->item(r, TcoEditor::Hardware)->data(Qt::UserRole).toString() == QStringLiteral("b300"))
                row = r;
        QVERIFY(row >= 0);
        editor->item(row, TcoEditor::Capex)->setText(QStringLiteral("87600")); // 2.00 $/GPU/hr of capital
        QVERIFY(std::abs(*find(panel()->plan(), "b300")->usdPerGpuHour - 2.5) < 1e-12);
        QSignalSpy refused(editor, &TcoEditor::refused);
        editor->item(row, TcoEditor::Pue)->setText(QStringLiteral("-1"));
        QCOMPARE(refused.size(), 1);
        QCOMPARE(editor->tcoModel().find("b300")->pue, 1.5);
        const auto blocked = m_window->planCommandLine();
        QVERIFY(!blocked.ok());
        QVERIFY(QString::fromStdString(blocked.error()).contains(QStringLiteral("save")));
        const QString saved = m_dir.filePath(QStringLiteral("tco-edited.json"));
        QVERIFY(m_window->saveTcoFile(saved).ok());
        QVERIFY(m_window->planCommandLine()->find("--tco") != std::string::npos);
        compareWithCli();
        panel()->setCostModel(PlanPanel::CostModel::ReadoutPrice);
    }

    // A TTFT limit set in the tab is the scope's filter: the filter panel shows it, the scope is read again, and the
    // MI325X, whose fastest median TTFT is 3 s, has no run meeting 2.5 s; B300 still plans. The CLI agrees.
    void ttftLimitIsTheScopesFilter()
    {
        QSignalSpy shown(m_window.get(), &MainWindow::scopeShown);
        NumberBox* box = panel()->findChild<NumberBox*>(QStringLiteral("ttftLimit"));
        QVERIFY(box);
        box->setValue(2.5);
        emit box->editingFinished();
        QVERIFY(shown.wait(10000));
        QCOMPARE(m_window->filters()->limits()->ttftBox()->value(), 2.5);
        QCOMPARE(m_window->scopeData()->scope.ttftMax, std::optional<double>(2.5));
        for (int i = 0; i < 10 && statusOf(panel()->plan(), "mi325x") != PlanStatus::SloNotMet; ++i)
            waitPlan([] {});
        QCOMPARE(statusOf(panel()->plan(), "mi325x"), PlanStatus::SloNotMet);
        QCOMPARE(statusOf(panel()->plan(), "b300"), PlanStatus::Ok);
        QVERIFY(m_window->planCommandLine()->find("--ttft-max 2.5") != std::string::npos);
        compareWithCli();
        // the filter panel's limit cleared: the tab shows no limit and plans both again
        m_window->filters()->limits()->ttftBox()->setValue(0);
        QVERIFY(shown.wait(10000));
        QCOMPARE(box->value(), 0.0);
        for (int i = 0; i < 10 && statusOf(panel()->plan(), "mi325x") != PlanStatus::Ok; ++i)
            waitPlan([] {});
        QCOMPARE(statusOf(panel()->plan(), "mi325x"), PlanStatus::Ok);
        // one limit and one statistic, set in either place and read in the other
        QComboBox* planStat = panel()->findChild<QComboBox*>(QStringLiteral("ttftStat"));
        QVERIFY(planStat);
        SloLimits* limits = m_window->filters()->limits();
        limits->ttftBox()->setValue(3);
        QVERIFY(shown.wait(10000));
        limits->ttftStatBox()->setCurrentIndex(limits->ttftStatBox()->findData(int(LatencyStat::P99)));
        QVERIFY(shown.wait(10000));
        QCOMPARE(box->value(), 3.0);
        QCOMPARE(LatencyStat(planStat->currentData().toInt()), LatencyStat::P99);
        planStat->setCurrentIndex(planStat->findData(int(LatencyStat::Median)));
        QVERIFY(shown.wait(10000));
        QCOMPARE(LatencyStat(limits->ttftStatBox()->currentData().toInt()), LatencyStat::Median);
        QCOMPARE(m_window->scopeData()->scope.ttftStat, LatencyStat::Median);
        box->lineEdit()->setText(QStringLiteral("1.5"));
        emit box->lineEdit()->editingFinished();
        QVERIFY(shown.wait(10000));
        QCOMPARE(limits->ttftBox()->value(), 1.5);
        QCOMPARE(m_window->scopeData()->scope.ttftMax, std::optional<double>(1.5));
        limits->ttftBox()->setValue(0);
        QVERIFY(shown.wait(10000));
        QCOMPARE(box->value(), 0.0);
    }

    // Filters that leave nothing: the tab says there is nothing to plan with.
    void emptyScopeSaysSo()
    {
        QSignalSpy spy(panel(), &PlanPanel::planShown);
        for (QListWidget* l : m_window->filters()->findChildren<QListWidget*>())
            for (int i = 0; i < l->count(); ++i)
                if (l->item(i)->text() == QStringLiteral("B300") || l->item(i)->text() == QStringLiteral("MI325X"))
                    l->item(i)->setCheckState(Qt::Unchecked);
        QVERIFY(m_window->filters()->scope().matchesNothing);
        for (int i = 0; i < 10 && !panel()->problem().contains(QStringLiteral("No runs")); ++i)
            spy.wait(2000);
        QVERIFY2(panel()->problem().contains(QStringLiteral("No runs")), qPrintable(panel()->problem()));
    }
};

PARETOSCOPE_SUITE(TestPlanTab)
#include "tst_plan_tab.moc"
