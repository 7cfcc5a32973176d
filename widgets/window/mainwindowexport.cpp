// The window's exports: the chart as PNG, SVG or PDF with its caption, and the tables as CSV, each through a file
// dialog that remembers its folder.
#include "widgets/window/mainwindow.h"

#include <QDate>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>

#include "core/analysis/scopehint.h"
#include "core/output/reports.h"
#include "widgets/chart/chartexport.h"
#include "widgets/chart/exportchartdialog.h"
#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

Status MainWindow::exportChartPng(const QString& path, QSize size, qreal scale) const
{
    if (!m_shown.data)
        return Error { "nothing to export yet" };
    return ui::exportChartPng(path, m_shown.data, m_chart->state(), bundledPricing(), size, scale, chartCaption());
}

QSize MainWindow::chartExportSize() const
{
    const QSize view = m_chart->view()->size();
    if (!m_shown.data)
        return view;
    return ui::chartExportSize(
        m_shown.data, m_chart->state(), bundledPricing(), view, m_chart->chart()->plotArea().height(), chartCaption());
}

ChartCaption MainWindow::chartCaption() const
{
    ChartCaption c;
    if (!m_shown.data)
        return c;
    const Scope& scope = m_shown.data->scope;
    const ChartRequest& request = m_chart->state().request;
    c.title = scopeTitle(*m_shown.data);

    QStringList sub;
    sub << yAxisTitle(request, m_shown.data->metric) + tr(" vs ") + xAxisName(request);
    if (request.x == ChartX::Interactivity)
        sub << tr("target %1 tok/s/user").arg(QLocale(QLocale::English).toString(m_chart->state().target, 'g', 4));
    sub << priceLabel(); // the tier the readings are priced at, whatever the y
    // the dates of the runs drawn (the filter's range where it has one), and the as-of day
    std::string first = scope.dateFrom, last = scope.dateTo;
    for (const HardwareSummary& h : m_shown.summaryFacts) {
        const std::string f = h.stats.firstDate.substr(0, 10), l = h.stats.lastDate.substr(0, 10);
        if (scope.dateFrom.empty() && !f.empty() && (first.empty() || f < first))
            first = f;
        if (scope.dateTo.empty() && !l.empty() && l > last)
            last = l;
    }
    if (!first.empty() || !last.empty())
        sub << (first == last ? tr("runs of %1").arg(QString::fromStdString(first))
                              : tr("runs %1 to %2")
                                    .arg(first.empty() ? tr("the first") : QString::fromStdString(first),
                                        last.empty() ? tr("the last") : QString::fromStdString(last)));
    if (!scope.asOf.empty())
        sub << tr("as of %1").arg(QString::fromStdString(scope.asOf));
    if (const std::string limits = limitsText(scope); !limits.empty())
        sub << QString::fromStdString(limits);
    c.subtitle = sub.join(QStringLiteral(" · "));
    c.source = tr("Paretoscope · %1 runs from %2 · drawn %3")
                   .arg(QLocale(QLocale::English).toString(qulonglong(m_shown.data->runCount)),
                       QFileInfo(m_worker.path()).fileName(), QDate::currentDate().toString(Qt::ISODate));
    return c;
}

QString MainWindow::priceLabel() const
{
    return priceChoiceLabel(m_readout->price(), bundledPricing());
}

Status MainWindow::exportChartSvg(const QString& path, QSize size) const
{
    if (!m_shown.data)
        return Error { "nothing to export yet" };
    return ui::exportChartSvg(path, m_shown.data, m_chart->state(), bundledPricing(), size, chartCaption());
}

Status MainWindow::exportLadderCsv(const QString& path) const
{
    auto read = ladder()->ladder(m_readout->price());
    if (!read)
        return Error { read.error() };
    return writeTextFile(path, ladderCsv(*read));
}

Status MainWindow::exportChartPdf(const QString& path, QSize size) const
{
    if (!m_shown.data)
        return Error { "nothing to export yet" };
    return ui::exportChartPdf(path, m_shown.data, m_chart->state(), bundledPricing(), size, chartCaption());
}

Status MainWindow::exportChart(const QString& path, ChartFormat format, const ExportSize& size) const
{
    switch (format) {
    case ChartFormat::Svg:
        return exportChartSvg(path, size.layout());
    case ChartFormat::Pdf:
        return exportChartPdf(path, size.layout());
    case ChartFormat::Png:
        break;
    }
    return exportChartPng(path, size.layout(), size.scale);
}

std::vector<ExportSize> MainWindow::chartExportSizes() const
{
    const QScreen* screen = this->screen();
    return exportSizes(screen ? screen->size() : QSize(), m_shown.data ? chartExportSize() : QSize());
}

void MainWindow::askExportChart()
{
    if (!m_shown.data) {
        plainMessage(this, false, tr("Export chart"), tr("Nothing to export yet: no scope is loaded."));
        return;
    }
    ExportChartDialog dialog(chartExportSizes(), this);
    QSettings settings;
    dialog.restore(settings.value(QStringLiteral("export/chart")).toString());
    if (dialog.exec() != QDialog::Accepted)
        return;
    settings.setValue(QStringLiteral("export/chart"), dialog.saved());
    const ChartFormat format = dialog.format();
    const QString suffix = chartFormatSuffix(format);
    QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
        QDir(lastFolder(QStringLiteral("export"))).filePath(QStringLiteral("frontier.") + suffix),
        tr("%1 (*.%2)").arg(suffix.toUpper(), suffix));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    rememberFolder(QStringLiteral("export"), QFileInfo(path).absolutePath());
    if (const Status st = exportChart(path, format, dialog.size()); !st)
        plainMessage(this, false, tr("Export chart"), QString::fromStdString(st.error()));
    else
        statusBar()->showMessage(tr("Chart exported to %1").arg(QDir::toNativeSeparators(path)), 8000);
}

void MainWindow::askExportCsv(CsvExport which)
{
    static const char* names[] = { "frontier.csv", "ladder.csv", "runs.csv", "history.csv", "plan.csv" };
    const QString path = QFileDialog::getSaveFileName(this, tr("Export as CSV"),
        QDir(lastFolder(QStringLiteral("export"))).filePath(QString::fromLatin1(names[which])), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    rememberFolder(QStringLiteral("export"), QFileInfo(path).absolutePath());
    if (which == FrontierCsv)
        return exportFrontierCsv(path); // csvExported says how it went
    if (which == RunsCsv)
        return exportRunsCsv(path);
    if (which == PlanCsv)
        return exportCurrentPlanCsv(path);
    if (const Status st = which == HistoryCsv ? exportHistoryCsv(path) : exportLadderCsv(path); !st)
        plainMessage(this, false, tr("Export"), QString::fromStdString(st.error()));
}

} // namespace paretoscope::ui
