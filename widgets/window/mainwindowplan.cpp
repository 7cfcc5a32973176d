// The Plan tab's part of the window: what it follows, the frontiers it plans on (read on the store worker), its
// command line, its exports and its TCO files.
#include "widgets/window/mainwindow.h"

#include <utility>

#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QGuiApplication>
#include <QSaveFile>
#include <QStatusBar>

#include "core/analysis/plancommand.h"
#include "core/output/planreports.h"
#include "core/output/tcowriter.h"
#include "widgets/chart/chartexport.h"
#include "widgets/common/displaynames.h"
#include "widgets/filters/slolimits.h"
#include "widgets/plan/planpanel.h"

namespace paretoscope::ui {

void MainWindow::connectPlan()
{
    m_plan->setTarget(m_readout->target());
    m_plan->setPrice(m_readout->price());
    m_plan->setHideSparse(m_readout->hideSparse());
    connect(m_readout, &ReadoutPanel::targetChanged, m_plan, &PlanPanel::setTarget);
    connect(m_readout, &ReadoutPanel::priceChanged, this, [this] { m_plan->setPrice(m_readout->price()); });
    connect(m_readout, &ReadoutPanel::hideSparseChanged, m_plan, &PlanPanel::setHideSparse);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_plan && m_planStale)
            loadPlan();
    });
    // the TTFT limit is the scope's, one filter in two places: edited here it goes through the filter panel (and the
    // scope is read again with it); the scope shown says what the tab shows
    connect(m_plan, &PlanPanel::sloEdited, this, [this](std::optional<double> seconds, LatencyStat stat) {
        SloLimits* limits = m_filters->limits();
        {
            const QSignalBlocker block(limits->ttftStatBox());
            limits->ttftStatBox()->setCurrentIndex(limits->ttftStatBox()->findData(int(stat)));
        }
        if (limits->ttftBox()->value() != seconds.value_or(0))
            limits->ttftBox()->setValue(seconds.value_or(0)); // emits changed: the scope is read again
        else
            emit limits->changed();
    });
    connect(m_plan, &PlanPanel::mixScopesChanged, this, &MainWindow::loadMixFrontiers);
    connect(m_plan, &PlanPanel::copyCommandRequested, this, &MainWindow::copyPlanCommand);
    connect(m_plan, &PlanPanel::exportCsvRequested, this, [this] { askExportCsv(4); });
    connect(m_plan, &PlanPanel::planShown, this, [this] {
        if (m_planCsvWaiting.isEmpty())
            return;
        const QString path = std::exchange(m_planCsvWaiting, QString());
        const Status st = exportPlanCsv(path);
        emit csvExported(path, st ? QString() : QString::fromStdString(st.error()));
    });
    connect(m_plan, &PlanPanel::exportPngRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the plan as PNG"),
            QDir(lastFolder(QStringLiteral("export"))).filePath(QStringLiteral("plan.png")), tr("PNG (*.png)"));
        if (path.isEmpty())
            return;
        rememberFolder(QStringLiteral("export"), QFileInfo(path).absolutePath());
        if (const Status st = exportPlanPng(path); !st)
            plainMessage(this, false, tr("Export"), QString::fromStdString(st.error()));
    });
    connect(m_plan, &PlanPanel::openTcoRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a TCO model"), lastFolder(QStringLiteral("tco")), tr("TCO model (*.json)"));
        if (path.isEmpty())
            return;
        rememberFolder(QStringLiteral("tco"), QFileInfo(path).absolutePath());
        if (const Status st = openTcoFile(path); !st)
            plainMessage(this, false, tr("Open a TCO model"), QString::fromStdString(st.error()));
    });
    connect(m_plan, &PlanPanel::saveTcoRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the TCO model"),
            QDir(lastFolder(QStringLiteral("tco"))).filePath(QStringLiteral("tco.json")), tr("TCO model (*.json)"));
        if (path.isEmpty())
            return;
        rememberFolder(QStringLiteral("tco"), QFileInfo(path).absolutePath());
        if (const Status st = saveTcoFile(path); !st)
            plainMessage(this, false, tr("Save the TCO model"), QString::fromStdString(st.error()));
    });
}

void MainWindow::loadPlan()
{
    if (!m_data)
        return;
    m_planStale = false;
    const Scope scope = m_data->scope;
    m_worker.post(
        QStringLiteral("plan"), this,
        [scope](RunStore& store) { return std::make_shared<const PlanFrontiers>(loadPlanFrontiers(store, scope)); },
        [this](Result<std::shared_ptr<const PlanFrontiers>> frontiers) {
            if (!frontiers) {
                if (!m_planCsvWaiting.isEmpty()) // the plan on record is not this scope's: nothing is written
                    emit csvExported(
                        std::exchange(m_planCsvWaiting, QString()), QString::fromStdString(frontiers.error()));
                m_plan->showProblem(QString::fromStdString(frontiers.error()));
                return;
            }
            m_plan->setFrontiers(std::move(*frontiers));
            if (!m_planCsvWaiting.isEmpty()) // behind another tab the panel plans when shown: an export waits
                m_plan->planNow();
        });
}

void MainWindow::loadMixFrontiers()
{
    auto parts = m_plan->mixParts();
    std::vector<Scope> scopes;
    for (const MixPart& p : parts ? *parts : std::vector<MixPart> {})
        scopes.push_back(p.scope);
    if (!parts || m_mixLoading == scopes)
        return; // the panel says why; or these parts are being read
    m_mixLoading = scopes;
    m_worker.post(
        QStringLiteral("plan mix"), this,
        [parts = *parts](RunStore& store) {
            std::vector<std::shared_ptr<const PlanFrontiers>> out;
            for (const MixPart& p : parts)
                out.push_back(std::make_shared<const PlanFrontiers>(loadPlanFrontiers(store, p.scope)));
            return std::make_shared<const std::vector<std::shared_ptr<const PlanFrontiers>>>(std::move(out));
        },
        [this, parts = *parts](Result<std::shared_ptr<const std::vector<std::shared_ptr<const PlanFrontiers>>>> read) {
            m_mixLoading.clear();
            if (!read) {
                m_plan->showProblem(QString::fromStdString(read.error()));
                return;
            }
            m_plan->setMixFrontiers(parts, **read);
        });
}

Status MainWindow::openTcoFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error { QString(path + QStringLiteral(": cannot read: ") + f.errorString()).toStdString() };
    const QByteArray bytes = f.readAll();
    auto model = parseTco(
        std::string_view(bytes.constData(), std::size_t(bytes.size())), QFileInfo(path).fileName().toStdString());
    if (!model)
        return Error { model.error() };
    m_plan->setTcoModel(std::move(*model), path);
    m_plan->setCostModel(PlanPanel::CostModel::Tco);
    return ok();
}

Status MainWindow::saveTcoFile(const QString& path)
{
    Status st = writeTextFile(path, tcoJson(m_plan->tcoModel()));
    if (st)
        m_plan->setTcoModel(m_plan->tcoModel(), path); // now the command line can name it
    return st;
}

void MainWindow::exportCurrentPlanCsv(const QString& path)
{
    if (m_planStale && m_data) {
        m_planCsvWaiting = path;
        return loadPlan();
    }
    const Status st = exportPlanCsv(path);
    emit csvExported(path, st ? QString() : QString::fromStdString(st.error()));
}

Status MainWindow::exportPlanCsv(const QString& path) const
{
    const std::string csv = m_plan->csv();
    if (csv.empty())
        return Error { "no plan to export: open the Plan tab on a scope with runs" };
    return writeTextFile(path, csv);
}

Status MainWindow::exportPlanPng(const QString& path) const
{
    const QImage image = m_plan->grab().toImage();
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !image.save(&f, "PNG") || !f.commit())
        return Error { QString(path + QStringLiteral(": cannot write the PNG: ") + f.errorString()).toStdString() };
    return ok();
}

Result<std::string> MainWindow::planCommandLine() const
{
    auto view = currentView();
    if (!view)
        return Error { view.error() };
    const PlanRequest req = m_plan->request();
    const bool tco = req.tco.has_value();
    if (tco && m_plan->tcoEdited())
        return Error { "the TCO parts were edited: save them as a file (Save TCO as…) for a command to name" };
    PlanCommandMode mode;
    if (m_plan->mode() == PlanPanel::Mode::Budget) {
        mode.budget = m_plan->budgetKind();
        mode.amount = m_plan->budget();
    } else if (m_plan->mode() == PlanPanel::Mode::Mix) {
        auto parts = m_plan->mixParts();
        if (!parts)
            return Error { "the workload mix is refused: " + parts.error() };
        mode.mix = mixSpecText(*parts, (*parts)[0].scope);
        if (mode.mix.empty())
            return Error { "the workload mix names another model: a mix file says it, not --mix" };
    }
    return planCommand(
        *view, req, tco ? m_plan->tcoPath().toStdString() : std::string(), storePath().toStdString(), mode);
}

void MainWindow::copyPlanCommand()
{
    const auto line = planCommandLine();
    if (!line) {
        statusBar()->showMessage(tr("Nothing copied: %1").arg(QString::fromStdString(line.error())), 10000);
        return;
    }
    const QString command = QString::fromStdString(*line);
    QGuiApplication::clipboard()->setText(command);
    statusBar()->showMessage(tr("Copied: %1").arg(command), 10000);
}

} // namespace paretoscope::ui
