// The Plan tab's budget and workload mix (docs/architecture.md sections 12.8 and 12.10) on the InferenceX fixture,
// offscreen: what the tab shows is what `paretoscope-cli plan` prints for the tab's own command line, its CSV is the
// CLI's, and a mix the editor refuses says why in the tab and gives no command line.
#include <QtTest>

#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTableWidget>

#include "core/analysis/viewoptions.h"
#include "core/output/planbudgetreports.h"
#include "core/output/planmixreports.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "widgets/plan/mixeditor.h"
#include "widgets/plan/planmodel.h"
#include "widgets/plan/planpanel.h"
#include "widgets/readout/readoutpanel.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestPlanModesTab : public ExplorerFixture {
    Q_OBJECT

    PlanPanel* panel() const { return m_window->plan(); }

    // the CLI's answer (stdout) to the tab's command line, with extra options
    QByteArray cliFor(const QStringList& extra)
    {
        const auto line = m_window->planCommandLine();
        if (!line) {
            qWarning("%s", line.error().c_str());
            return {};
        }
        int code = 0;
        QByteArray err;
        const QByteArray out = runCommandLine(*line, extra, &code, &err);
        if (code != 0)
            qWarning("%s", err.constData());
        return out;
    }

    // waits until `ready` holds after the tab has shown a plan; false after ten plans or ten seconds each
    template <typename F> bool waitFor(F ready)
    {
        QSignalSpy shown(panel(), &PlanPanel::planShown);
        for (int i = 0; i < 10 && !ready(); ++i)
            if (!shown.wait(10000))
                return ready();
        return ready();
    }

private slots:
    void initTestCase()
    {
        openExplorer("tst_plan_modes_tab");
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        m_window->readout()->setTarget(40);
        m_window->showPanel(panel());
        QVERIFY(waitFor([this] { return !panel()->plan().hardware.empty(); }));
    }
    void cleanupTestCase() { m_window.reset(); }

    void budget()
    {
        panel()->setBudget(10, BudgetKind::Megawatts);
        panel()->setMode(PlanPanel::Mode::Budget);
        QVERIFY(waitFor([this] { return panel()->budgetPlan().has_value(); }));
        const auto line = m_window->planCommandLine();
        QVERIFY(line && line->find("--budget-mw 10") != std::string::npos);
        QVERIFY(line->find("--demand") == std::string::npos);
        const QJsonDocument cli
            = QJsonDocument::fromJson(cliFor({ QStringLiteral("--format"), QStringLiteral("json") }));
        const QJsonDocument tab
            = QJsonDocument::fromJson(QByteArray::fromStdString(budgetJson(*panel()->budgetPlan())));
        QVERIFY(cli.isObject() && !cli.object().isEmpty());
        QCOMPARE(tab.object(), cli.object());
        QCOMPARE(
            QByteArray::fromStdString(panel()->csv()), cliFor({ QStringLiteral("--format"), QStringLiteral("csv") }));
        // the table says what each deployment serves, and which serves the most
        const PlanModel* model = panel()->model();
        int most = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            most += model->data(model->index(r, PlanModel::Hardware))
                        .toString()
                        .contains(QStringLiteral("serves the most"));
            QVERIFY(!model->data(model->index(r, PlanModel::Serves)).toString().isEmpty());
        }
        QCOMPARE(most, 1);
        // $ a month: the box takes what a month's budget is
        panel()->setBudget(5e6, BudgetKind::UsdPerMonth);
        QVERIFY(waitFor(
            [this] { return panel()->budgetPlan() && panel()->budgetPlan()->kind == BudgetKind::UsdPerMonth; }));
        QVERIFY(m_window->planCommandLine()->find("--budget-usd-month 5000000") != std::string::npos);
        QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(budgetJson(*panel()->budgetPlan()))).object(),
            QJsonDocument::fromJson(cliFor({ QStringLiteral("--format"), QStringLiteral("json") })).object());
    }

    void mix()
    {
        panel()->setDemand(2e6, DemandUnit::TokPerS);
        QVERIFY(panel()->mixEditor()->setSpecText(QStringLiteral("1024/1024:0.7,8192/1024:0.3")));
        panel()->setMode(PlanPanel::Mode::Mix);
        QVERIFY(waitFor([this] { return panel()->mixPlan().has_value(); }));
        QCOMPARE(panel()->mixPlan()->parts.size(), std::size_t(2));
        const auto line = m_window->planCommandLine();
        QVERIFY2(line && line->find("--mix 1024/1024:0.7,8192/1024:0.3") != std::string::npos,
            line ? line->c_str() : line.error().c_str());
        QVERIFY(line->find("--isl") == std::string::npos);
        const QJsonDocument cli
            = QJsonDocument::fromJson(cliFor({ QStringLiteral("--format"), QStringLiteral("json") }));
        const QJsonDocument tab = QJsonDocument::fromJson(QByteArray::fromStdString(mixJson(*panel()->mixPlan())));
        QVERIFY(cli.isObject() && cli.object().contains(QStringLiteral("mixed")));
        QCOMPARE(tab.object(), cli.object());
        QCOMPARE(
            QByteArray::fromStdString(panel()->csv()), cliFor({ QStringLiteral("--format"), QStringLiteral("csv") }));
        // a part of its own target, typed in the editor
        QTableWidget* parts = panel()->mixEditor()->table();
        parts->item(1, 3)->setText(QStringLiteral("60"));
        QVERIFY(waitFor([this] { return panel()->mixPlan() && panel()->mixPlan()->plans[1].target == 60; }));
        QVERIFY(m_window->planCommandLine()->find("8192/1024:0.3@60") != std::string::npos);
    }

    // shares that do not add up: the editor and the tab say so, and there is no command line to copy
    void mixRefused()
    {
        QTableWidget* parts = panel()->mixEditor()->table();
        parts->item(0, 2)->setText(QStringLiteral("60"));
        QVERIFY(waitFor([this] { return !panel()->mixPlan().has_value(); }));
        QVERIFY2(panel()->mixEditor()->refusal().contains(QStringLiteral("the shares add up to 90%, not 100%")),
            qPrintable(panel()->mixEditor()->refusal()));
        QVERIFY(!m_window->planCommandLine());
        // shares are typed in %, and said in %
        parts->item(0, 2)->setText(QStringLiteral("150"));
        QVERIFY2(
            panel()->mixEditor()->refusal().contains(QStringLiteral("a share is above 0% and at most 100% (not 150)")),
            qPrintable(panel()->mixEditor()->refusal()));
        parts->item(0, 2)->setText(QStringLiteral("70"));
        QVERIFY(waitFor([this] { return panel()->mixPlan().has_value(); }));
        // a mix read back adds up as it did: every digit of its shares kept
        QVERIFY(panel()->mixEditor()->setSpecText(QStringLiteral(
            "1024/1024:0.2000004,2048/1024:0.2000004,4096/1024:0.2000004,8192/1024:0.2000004,1024/2048:0.1999984")));
        QVERIFY2(panel()->mixEditor()->refusal().isEmpty(), qPrintable(panel()->mixEditor()->refusal()));
        QVERIFY(panel()->mixEditor()->setSpecText(QStringLiteral("1024/1024:0.7,8192/1024:0.3")));
        QCOMPARE(parts->item(0, 2)->text(), QStringLiteral("70"));
        QVERIFY(waitFor([this] { return panel()->mixPlan().has_value(); }));
        panel()->setMode(PlanPanel::Mode::Demand);
        QVERIFY(waitFor([this] { return !panel()->plan().hardware.empty() && !panel()->mixPlan(); }));
    }
};

PARETOSCOPE_SUITE(TestPlanModesTab)
#include "tst_plan_modes_tab.moc"
