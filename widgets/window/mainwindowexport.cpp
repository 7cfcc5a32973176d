// The window's exports: the chart as PNG or SVG with its caption, and the tables as CSV, each through a file dialog
// that remembers its folder.
#include "widgets/window/mainwindow.h"

#include <QDate>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>

#include "core/analysis/scopehint.h"
#include "core/model/modelnames.h"
#include "core/output/reports.h"
#include "widgets/chart/chartexport.h"
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
    QStringList title;
    title << QString::fromStdString(modelDisplayName(scope.model));
    title << (scope.isl ? QStringLiteral("ISL %1 / OSL %2").arg(*scope.isl).arg(scope.osl.value_or(0))
                        : QString::fromStdString(scope.workload));
    title << yAxisTitle(request, m_shown.data->metric) + tr(" vs ") + xAxisName(request);
    if (request.y == ChartY::Cost) {
        const PriceChoice price = m_chart->state().request.price;
        const PricingTier* tier = price.tierKey.empty() ? nullptr : bundledPricing().find(price.tierKey);
        title << (tier ? QString::fromStdString(tier->label)
                       : tr("$%1/GPU/hr").arg(price.customUsdPerGpuHour.value_or(0), 0, 'f', 2));
    }
    if (!scope.dateFrom.empty() || !scope.dateTo.empty())
        title << tr("runs %1 to %2")
                     .arg(scope.dateFrom.empty() ? tr("the first") : QString::fromStdString(scope.dateFrom),
                         scope.dateTo.empty() ? tr("the last") : QString::fromStdString(scope.dateTo));
    if (const std::string limits = limitsText(scope); !limits.empty())
        title << QString::fromStdString(limits);
    c.title = title.join(QStringLiteral(" · "));
    c.source = tr("Paretoscope · %1 runs from %2 · drawn %3")
                   .arg(QLocale(QLocale::English).toString(qulonglong(m_shown.data->runCount)),
                       QFileInfo(m_worker.path()).fileName(), QDate::currentDate().toString(Qt::ISODate));
    return c;
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

void MainWindow::askExportChart(bool svg)
{
    const QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export chart as SVG") : tr("Export chart as PNG"),
        QDir(lastFolder(QStringLiteral("export")))
            .filePath(svg ? QStringLiteral("frontier.svg") : QStringLiteral("frontier.png")),
        svg ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
    if (path.isEmpty())
        return;
    rememberFolder(QStringLiteral("export"), QFileInfo(path).absolutePath());
    QSize size = chartExportSize();
    qreal scale = 2;
    if (!svg) {
        static const QRegularExpression re(QStringLiteral("^\\s*(\\d+)\\s*x\\s*(\\d+)\\s*(?:@\\s*([0-9.]+))?\\s*$"));
        QString answer = QStringLiteral("%1x%2 @2").arg(size.width()).arg(size.height());
        QRegularExpressionMatch m;
        // asked again, with what was typed, until it reads as a size or the dialog is cancelled
        for (;;) {
            bool ok = false;
            answer = QInputDialog::getText(this, tr("Export chart as PNG"),
                tr("Size in pixels (width x height) and scale:"), QLineEdit::Normal, answer, &ok);
            if (!ok)
                return;
            m = re.match(answer);
            if (m.hasMatch() && m.captured(1).toInt() >= 100 && m.captured(2).toInt() >= 100)
                break;
            QMessageBox::warning(this, tr("Export chart"), tr("Give the size as 1600x1000 @2 (at least 100x100)."));
        }
        size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        if (!m.captured(3).isEmpty())
            scale = std::clamp(m.captured(3).toDouble(), 0.5, 8.0);
    }
    const Status st = svg ? exportChartSvg(path, size) : exportChartPng(path, size, scale);
    if (!st)
        plainMessage(this, false, tr("Export chart"), QString::fromStdString(st.error()));
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
