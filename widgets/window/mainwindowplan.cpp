// The Plan tab's part of the window's interface: its command line and exports (the page itself, what it follows and
// reads, its TCO files and settings: planpage.cpp).
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
#include "widgets/window/planpage.h"

namespace paretoscope::ui {

Status MainWindow::openTcoFile(const QString& path)
{
    return pageOf<PlanPage>()->openTcoFile(path);
}

Status MainWindow::saveTcoFile(const QString& path)
{
    return pageOf<PlanPage>()->saveTcoFile(path);
}

void MainWindow::exportCurrentPlanCsv(const QString& path)
{
    pageOf<PlanPage>()->exportCsvWhenPlanned(path);
}

Status MainWindow::exportPlanCsv(const QString& path) const
{
    const std::string csv = plan()->csv();
    if (csv.empty())
        return Error { "no plan to export: open the Plan tab on a scope with runs" };
    return writeTextFile(path, csv);
}

Status MainWindow::exportPlanPng(const QString& path) const
{
    const QImage image = plan()->grab().toImage();
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
    const PlanRequest req = plan()->request();
    const bool tco = req.tco.has_value();
    if (tco && plan()->tcoEdited())
        return Error { "the TCO parts were edited: save them as a file (Save TCO as…) for a command to name" };
    PlanCommandMode mode;
    if (plan()->mode() == PlanPanel::Mode::Budget) {
        mode.budget = plan()->budgetKind();
        mode.amount = plan()->budget();
    } else if (plan()->mode() == PlanPanel::Mode::Mix) {
        auto parts = plan()->mixParts();
        if (!parts)
            return Error { "the workload mix is refused: " + parts.error() };
        mode.mix = mixSpecText(*parts, (*parts)[0].scope);
        if (mode.mix.empty())
            return Error { "the workload mix names another model: a mix file says it, not --mix" };
    }
    return planCommand(
        *view, req, tco ? plan()->tcoPath().toStdString() : std::string(), storePath().toStdString(), mode);
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
