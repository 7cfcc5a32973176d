// The Plan tab's page: what it follows, the frontiers it plans on (read on the store worker), its exports, its TCO
// files and its settings.
#include "widgets/window/planpage.h"

#include <cmath>
#include <utility>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

#include "core/analysis/chartdata.h"
#include "core/analysis/plan.h"
#include "core/analysis/plandefaults.h"
#include "core/analysis/scopeaccuracy.h"
#include "core/output/tcowriter.h"
#include "widgets/common/displaynames.h"
#include "widgets/filters/filterpanel.h"
#include "widgets/filters/slolimits.h"
#include "widgets/plan/mixeditor.h"
#include "widgets/plan/planpanel.h"
#include "widgets/readout/readoutpanel.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

PlanPage::PlanPage(MainWindow& window)
    : Page(window)
    , m_panel(new PlanPanel(&window))
{
    connect(m_panel, &PlanPanel::planShown, this, &Page::ready);
}

QWidget* PlanPage::widget() const
{
    return m_panel;
}

void PlanPage::connectToWindow()
{
    ReadoutPanel* readout = window().readout();
    m_panel->setTarget(readout->target());
    m_panel->setPrice(readout->price());
    m_panel->setHideSparse(readout->hideSparse());
    connect(readout, &ReadoutPanel::targetChanged, m_panel, &PlanPanel::setTarget);
    connect(readout, &ReadoutPanel::priceChanged, this, [this, readout] { m_panel->setPrice(readout->price()); });
    connect(readout, &ReadoutPanel::hideSparseChanged, m_panel, &PlanPanel::setHideSparse);
    // the TTFT limit is the scope's, one filter in two places: edited here it goes through the filter panel (and the
    // scope is read again with it); the scope shown says what the tab shows
    connect(m_panel, &PlanPanel::sloEdited, this, [this](std::optional<double> seconds, LatencyStat stat) {
        SloLimits* limits = window().filters()->limits();
        {
            const QSignalBlocker block(limits->ttftStatBox());
            limits->ttftStatBox()->setCurrentIndex(limits->ttftStatBox()->findData(int(stat)));
        }
        if (limits->ttftBox()->value() != seconds.value_or(0))
            limits->ttftBox()->setValue(seconds.value_or(0)); // emits changed: the scope is read again
        else
            emit limits->changed();
    });
    connect(m_panel, &PlanPanel::mixScopesChanged, this, &PlanPage::loadMixFrontiers);
    connect(m_panel, &PlanPanel::copyCommandRequested, &window(), &MainWindow::copyPlanCommand);
    connect(m_panel, &PlanPanel::exportCsvRequested, this, [this] { window().askExportCsv(MainWindow::PlanCsv); });
    connect(m_panel, &PlanPanel::planShown, this, [this] {
        if (m_csvWaiting.isEmpty())
            return;
        const QString path = std::exchange(m_csvWaiting, QString());
        const Status st = window().exportPlanCsv(path);
        emit window().csvExported(path, st ? QString() : QString::fromStdString(st.error()));
    });
    connect(m_panel, &PlanPanel::exportPngRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(&window(), tr("Export the plan as PNG"),
            QDir(MainWindow::lastFolder(QStringLiteral("export"))).filePath(QStringLiteral("plan.png")),
            tr("PNG (*.png)"));
        if (path.isEmpty())
            return;
        MainWindow::rememberFolder(QStringLiteral("export"), QFileInfo(path).absolutePath());
        if (const Status st = window().exportPlanPng(path); !st)
            plainMessage(&window(), false, tr("Export"), QString::fromStdString(st.error()));
    });
    connect(m_panel, &PlanPanel::openTcoRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            &window(), tr("Open a TCO model"), MainWindow::lastFolder(QStringLiteral("tco")), tr("TCO model (*.json)"));
        if (path.isEmpty())
            return;
        MainWindow::rememberFolder(QStringLiteral("tco"), QFileInfo(path).absolutePath());
        if (const Status st = openTcoFile(path); !st)
            plainMessage(&window(), false, tr("Open a TCO model"), QString::fromStdString(st.error()));
    });
    connect(m_panel, &PlanPanel::saveTcoRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(&window(), tr("Save the TCO model"),
            QDir(MainWindow::lastFolder(QStringLiteral("tco"))).filePath(QStringLiteral("tco.json")),
            tr("TCO model (*.json)"));
        if (path.isEmpty())
            return;
        MainWindow::rememberFolder(QStringLiteral("tco"), QFileInfo(path).absolutePath());
        if (const Status st = saveTcoFile(path); !st)
            plainMessage(&window(), false, tr("Save the TCO model"), QString::fromStdString(st.error()));
    });
}

std::optional<AccuracyRequirement> PlanPage::accuracyRequired() const
{
    const auto& data = window().scopeData();
    return data && data->accuracyFilter ? std::optional<AccuracyRequirement>(data->accuracyFilter->requirement)
                                        : std::nullopt;
}

std::shared_ptr<const PlanFrontiers> PlanPage::loadRequired(
    RunStore& store, const Scope& scope, const std::optional<AccuracyRequirement>& accuracy)
{
    auto frontiers = std::make_shared<PlanFrontiers>(loadPlanFrontiers(store, scope));
    // the accuracy the filter panel requires: the plan sizes only on the groups that meet it, judged on an index of
    // its own (the scope's is the GUI thread's)
    if (accuracy)
        requireAccuracy(*frontiers, EvaluationIndex(storedEvaluations(store, scope.model)), *accuracy);
    return frontiers;
}

void PlanPage::load()
{
    if (!window().scopeData())
        return;
    const Scope scope = window().scopeData()->scope;
    const auto accuracy = accuracyRequired();
    window().storeWorker().post(
        QStringLiteral("plan"), this,
        [scope, accuracy](RunStore& store) { return loadRequired(store, scope, accuracy); },
        [this](Result<std::shared_ptr<const PlanFrontiers>> frontiers) {
            if (!frontiers) {
                if (!m_csvWaiting.isEmpty()) // the plan on record is not this scope's: nothing is written
                    emit window().csvExported(
                        std::exchange(m_csvWaiting, QString()), QString::fromStdString(frontiers.error()));
                m_panel->showProblem(QString::fromStdString(frontiers.error()));
                return;
            }
            // the accuracy of the group each hardware is sized on, on the task the readout shows
            const auto& data = window().scopeData();
            m_panel->setEvaluations(data ? data->evaluations : nullptr, data ? data->accuracyTask : std::string());
            m_panel->setFrontiers(std::move(*frontiers));
            if (!m_csvWaiting.isEmpty()) // behind another tab the panel plans when shown: an export waits
                m_panel->planNow();
        });
}

void PlanPage::loadMixFrontiers()
{
    auto parts = m_panel->mixParts();
    std::vector<Scope> scopes;
    for (const MixPart& p : parts ? *parts : std::vector<MixPart> {})
        scopes.push_back(p.scope);
    if (!parts || m_mixLoading == scopes)
        return; // the panel says why; or these parts are being read
    m_mixLoading = scopes;
    window().storeWorker().post(
        QStringLiteral("plan mix"), this,
        [parts = *parts, accuracy = accuracyRequired()](RunStore& store) {
            std::vector<std::shared_ptr<const PlanFrontiers>> out;
            out.reserve(parts.size());
            for (const MixPart& p : parts)
                out.push_back(loadRequired(store, p.scope, accuracy));
            return std::make_shared<const std::vector<std::shared_ptr<const PlanFrontiers>>>(std::move(out));
        },
        [this, parts = *parts](Result<std::shared_ptr<const std::vector<std::shared_ptr<const PlanFrontiers>>>> read) {
            m_mixLoading.clear();
            if (!read) {
                m_panel->showProblem(QString::fromStdString(read.error()));
                return;
            }
            m_panel->setMixFrontiers(parts, **read);
        });
}

Status PlanPage::openTcoFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error { QString(path + QStringLiteral(": cannot read: ") + f.errorString()).toStdString() };
    const QByteArray bytes = f.readAll();
    auto model = parseTco(
        std::string_view(bytes.constData(), std::size_t(bytes.size())), QFileInfo(path).fileName().toStdString());
    if (!model)
        return Error { model.error() };
    m_panel->setTcoModel(std::move(*model), path);
    m_panel->setCostModel(PlanPanel::CostModel::Tco);
    return ok();
}

Status PlanPage::saveTcoFile(const QString& path)
{
    Status st = writeTextFile(path, tcoJson(m_panel->tcoModel()));
    if (st)
        m_panel->setTcoModel(m_panel->tcoModel(), path); // now the command line can name it
    return st;
}

void PlanPage::exportCsvWhenPlanned(const QString& path)
{
    if (stale() && window().scopeData()) {
        m_csvWaiting = path;
        return entered(); // the plan is made now, in front or not; the CSV is written once it is shown
    }
    const Status st = window().exportPlanCsv(path);
    emit window().csvExported(path, st ? QString() : QString::fromStdString(st.error()));
}

void PlanPage::restoreSettings(const QSettings& s)
{
    const PlanDefaults defaults;
    const auto unit = parseDemandUnit(
        s.value("plan/unit", QString::fromLatin1(demandUnitName(defaults.unit).data())).toString().toStdString());
    m_panel->setDemand(s.value("plan/demand", defaults.demand).toDouble(), unit.value_or(defaults.unit));
    m_panel->setHeadroom(s.value("plan/headroom", defaults.headroom).toDouble());
    m_panel->setCustomPrice(s.value("plan/customPrice", defaults.usdPerGpuHour).toDouble());
    // a TCO file that is gone or no longer valid leaves the shipped example, and the status line says why
    const QString tco = s.value("plan/tcoFile").toString();
    if (!tco.isEmpty())
        if (const Status st = openTcoFile(tco); !st)
            window().showStatus(
                tr("The Plan tab's TCO model was not reopened: %1").arg(QString::fromStdString(st.error())));
    m_panel->setCostModel(
        static_cast<PlanPanel::CostModel>(s.value("plan/costModel", int(PlanPanel::CostModel::ReadoutPrice)).toInt()));
    // a budget and a mix are kept as typed; one that no longer reads leaves the defaults
    const int kind = s.value("plan/budgetKind", int(defaults.budgetKind)).toInt();
    const double amount = s.value("plan/budget", defaults.budget).toDouble();
    if (amount > 0 && std::isfinite(amount)
        && (kind == int(BudgetKind::Megawatts) || kind == int(BudgetKind::UsdPerMonth)))
        m_panel->setBudget(amount, BudgetKind(kind));
    if (const QString mix = s.value("plan/mix").toString(); !mix.isEmpty())
        m_panel->mixEditor()->setSpecText(mix);
    const int mode = s.value("plan/mode", int(PlanPanel::Mode::Demand)).toInt();
    if (mode >= int(PlanPanel::Mode::Demand) && mode <= int(PlanPanel::Mode::Mix))
        m_panel->setMode(PlanPanel::Mode(mode));
}

void PlanPage::saveSettings(QSettings& s) const
{
    s.setValue("plan/demand", m_panel->demand());
    s.setValue("plan/unit", QString::fromLatin1(demandUnitName(m_panel->unit()).data()));
    s.setValue("plan/headroom", m_panel->headroom());
    s.setValue("plan/costModel", int(m_panel->costModel()));
    s.setValue("plan/customPrice", m_panel->customPrice());
    s.setValue("plan/tcoFile", m_panel->tcoPath());
    s.setValue("plan/mode", int(m_panel->mode()));
    s.setValue("plan/budget", m_panel->budget());
    s.setValue("plan/budgetKind", int(m_panel->budgetKind()));
    s.setValue("plan/mix", m_panel->mixEditor()->specText());
}

} // namespace paretoscope::ui
