#pragma once

#include <QImage>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "widgets/chart/frontierchart.h"
#include "widgets/common/plotpicture.h"

namespace paretoscope::ui {

/// What a chart shared on its own says of itself: a title above it (scope, lengths, metric, tier, dates) and a
/// source line under it (where the runs came from, when it was drawn).
struct ChartCaption {
    QString title; ///< what is drawn: model, lengths, precision
    QString subtitle; ///< how it is read: measure, target, tier, run dates (a line of its own under the title)
    QString source;
};

/// A chart's title: the model's display name, the lengths (or the workload) and the precisions drawn (those the
/// filter keeps, else those of the groups in scope), joined by " · ".
QString scopeTitle(const ScopeData& data);

/// What a chart is written as: a picture (PNG), or vector lines and text (SVG, PDF).
enum class ChartFormat { Png, Svg, Pdf };
/// "png", "svg", "pdf"
QString chartFormatSuffix(ChartFormat format);

/// A size an export is offered at: its pixels, laid out at pixels / scale (a scale of 1.5 draws type and lines 1.5
/// times as large as on screen).
struct ExportSize {
    QString name;
    QSize pixels;
    qreal scale = 1;
    QSize layout() const { return (QSizeF(pixels) / scale).toSize(); }
};
/// The sizes the export dialog offers: a 16:9 slide (1920 x 1080), a 4:3 slide (1440 x 1080), the screen's size and,
/// where asOnScreen is given (chartExportSize), the chart as on screen with its whole legend at twice its pixels.
std::vector<ExportSize> exportSizes(QSize screen, QSize asOnScreen);
/// "Slide 16:9 (1920 x 1080)"
QString exportSizeText(const ExportSize& size);

/// A chart staged for a picture in steps, so that the GUI thread can have its run cloud drawn off it (the replay's
/// frames): made (the chart built and laid out, light whatever the theme), cloudDrawing() run on any thread (on the
/// pictures' pool: PlotPicture::drawAhead) and handed back with takeCloud(), then render(). renderChart does it at
/// once.
class StagedExport {
public:
    /// pixels: the picture's size where it is not size x scale to the pixel (a replay's frames, each exactly the
    /// video's size).
    StagedExport(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
        QSize size, qreal scale, const ChartCaption& caption = {}, QSize pixels = {});
    ~StagedExport();
    StagedExport(const StagedExport&) = delete;
    StagedExport& operator=(const StagedExport&) = delete;
    /// Whether the picture is within renderChart's limit (256 million pixels); nothing is staged where it is not.
    bool fits() const;
    /// What draws the run cloud's picture as render() would (copies of what it draws: any thread, once).
    std::function<PlotPicture::Drawn()> cloudDrawing();
    void takeCloud(PlotPicture::Drawn drawn);
    /// The picture (GUI thread); a null image where it does not fit or cannot be allocated.
    QImage render();

private:
    struct Stage;
    std::unique_ptr<Stage> m_stage;
    QSize m_pixels;
};

/// Renders the chart of a scope, as the window shows it, into an image of size x scale pixels (the layout is
/// that of a size-sized window, drawn at scale: 2 gives a sharp picture for documents). A null image where that is
/// more than 256 million pixels, or more than can be allocated.
QImage renderChart(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, qreal scale, const ChartCaption& caption = {});
/// Writes that image as PNG; the error names the file (and says so where the image is too large to be drawn).
Status exportChartPng(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, qreal scale, const ChartCaption& caption = {});
/// Writes the chart as SVG (vector lines and text).
Status exportChartSvg(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption = {});
/// Writes the chart as a one-page vector PDF of size points.
Status exportChartPdf(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption = {});
/// Where the value labels at the target stand in an export of that size (all inside exportedPlotArea).
std::vector<QRectF> exportedLabelBoxes(std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption = {});
/// Where the plot lies in an export of that size: what is left of it once the title, the legend under the plot and
/// the source line have their room.
QRectF exportedPlotArea(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, const ChartCaption& caption = {});
/// The size an export is offered at: as wide as the chart's view on screen (view), and tall enough that its plot is
/// as tall as the one on screen (plotHeight) above a legend of every group and bound; a scope of two dozen groups on
/// a small screen would otherwise be exported as a strip of plot over its legend.
QSize chartExportSize(const std::shared_ptr<const ScopeData>& data, const ChartState& state,
    const PricingCatalog& pricing, QSize view, qreal plotHeight, const ChartCaption& caption = {});
/// Writes text (a CSV from core) atomically: the file is whole or untouched.
Status writeTextFile(const QString& path, const std::string& text);

} // namespace paretoscope::ui
