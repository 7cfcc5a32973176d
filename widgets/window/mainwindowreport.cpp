// File > Export report... (docs/report.md): the view on screen, and the Plan tab's demand plan, as the report the CLI's
// `report` writes (PDF, or HTML for a name ending .html), built on the store worker.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

#include "core/model/outsidefile.h"
#include "core/output/reportbuild.h"
#include "widgets/common/displaynames.h"
#include "widgets/plan/planpanel.h"
#include "widgets/readout/readoutpanel.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

void MainWindow::askExportReport()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export report"),
        QDir(lastFolder(QStringLiteral("export"))).filePath(QStringLiteral("report.pdf")),
        tr("Report as PDF (*.pdf);;Report as one HTML file (*.html)"));
    if (path.isEmpty())
        return;
    rememberFolder(QStringLiteral("export"), QFileInfo(path).absolutePath());
    connect(
        this, &MainWindow::reportExported, this,
        [this](const QString& written, const QString& error) {
            if (error.isEmpty())
                statusBar()->showMessage(tr("Report written: %1").arg(written), 10000);
            else
                plainMessage(this, true, tr("Export report"), tr("No report written: %1").arg(error));
        },
        Qt::SingleShotConnection);
    exportReport(path);
}

void MainWindow::exportReport(const QString& path)
{
    auto view = currentView();
    if (!view)
        return emit reportExported(path, QString::fromStdString(view.error()));
    ReportRequest request;
    request.view = std::move(*view);
    request.target = m_readout->target();
    if (plan()->mode() == PlanPanel::Mode::Demand && plan()->request().demand > 0) {
        PlanRequest p = plan()->request();
        p.scope = request.view.request.scope; // the plan of the scope in view, whether or not its tab was opened
        request.plan = std::move(p);
    }
    statusBar()->showMessage(tr("Writing the report…"));
    m_worker.post(
        QString(), this,
        [path, request](RunStore& store) -> Status {
            ReportOutcome report = buildReport(store, request);
            if (report.emptyScope)
                return Error { "the scope in view holds no runs" };
            if (!report.doc)
                return Error { report.error };
            const bool pdf = path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
            return replaceFile(path.toStdString(), pdf ? reportPdf(*report.doc) : reportHtml(*report.doc));
        },
        [this, path](
            const Status& st) { emit reportExported(path, st ? QString() : QString::fromStdString(st.error())); });
}

} // namespace paretoscope::ui
