#include "widgets/chart/chartexport.h"

#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cmath>
#include <functional>
#include <optional>
#include <set>

#include "core/model/modelnames.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/groupstyle.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

// Named, not anonymous: StagedExport::Stage (external linkage) holds one.
namespace chartexportparts {

// A chart of its own in a scene of its own, laid out at the requested size, its title above and its source line
// under it.
struct StagedChart {
    QGraphicsScene scene;
    FrontierChart* chart;
    StagedChart(std::shared_ptr<const ScopeData> data, ChartState state, const PricingCatalog& pricing, QSize size,
        const ChartCaption& caption)
    {
        scene.setItemIndexMethod(QGraphicsScene::NoIndex); // as the view's (chartpanel.cpp)
        state.request.pixelsWide = size.width();
        state.request.pixelsHigh = size.height();
        chart = new FrontierChart(std::move(data), state, pricing);
        scene.addItem(chart); // the scene owns it
        qreal footer = 0;
        if (!caption.source.isEmpty()) {
            auto* line = new QGraphicsSimpleTextItem(caption.source);
            QFont f = line->font();
            f.setPointSizeF(f.pointSizeF() * 0.85);
            line->setFont(f);
            line->setBrush(QColor(90, 90, 90));
            footer = line->boundingRect().height() + 6;
            line->setPos(10, size.height() - footer + 2);
            scene.addItem(line);
        }
        if (!caption.title.isEmpty()) {
            QFont f = chart->titleFont();
            f.setBold(true);
            f.setPointSizeF(f.pointSizeF() * 1.1);
            chart->setTitleFont(f);
            // laid out as HTML: imported names escaped, shown as written; the subtitle on a line of its own
            QString html = caption.title.toHtmlEscaped();
            if (!caption.subtitle.isEmpty())
                html += QStringLiteral("<br><span style=\"font-weight:normal\">%1</span>")
                            .arg(caption.subtitle.toHtmlEscaped());
            chart->setTitle(html);
        }
        // the legend under the plot in as many columns as the width holds, every shown group and bound in it (Qt
        // Charts' own legend cut a long list short, and a small export down to a few entries)
        chart->legend()->hide();
        const qreal legend = addLegend(size, footer);
        chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size.width(), size.height() - footer - legend)));
        if (chart->layout())
            chart->layout()->activate();
        scene.setSceneRect(QRectF(QPointF(0, 0), size));
    }

    // Lays the legend out above the footer; returns its height.
    qreal addLegend(QSize size, qreal footer)
    {
        struct Entry {
            QString text;
            QPen pen;
            std::optional<MarkerShape> knot;
            bool hollow = false;
            bool faint;
        };
        std::vector<Entry> entries;
        for (std::size_t i = 0; i < chart->groupCount(); ++i)
            if (chart->groupVisible(i))
                entries.push_back({ chart->groupName(i), chart->groupPen(i), chart->groupShape(i),
                    chart->groupHollow(i), !chart->groupCovers(i) });
        for (std::size_t i = 0; i < chart->speedOfLightCount(); ++i) {
            // a bound cut away whole lies above a linear view: the legend says so rather than name a line not drawn
            const bool above = !chart->speedOfLightInView(i);
            entries.push_back({ chart->speedOfLightName(i) + (above ? QObject::tr(": above the view") : QString()),
                chart->speedOfLightPen(i), std::nullopt, false, above });
        }
        if (entries.empty())
            return 0;
        QFont font = chart->font();
        const qreal width = size.width() - 20;
        int columns = 1;
        qreal columnWidth = 0, line = 0;
        // smaller type before a legend taller than a third of the picture
        for (qreal scale : { 0.9, 0.8, 0.7 }) {
            font.setPointSizeF(chart->font().pointSizeF() * scale);
            const QFontMetricsF fm(font);
            qreal widest = 0;
            for (const Entry& e : entries)
                widest = std::max(widest, fm.horizontalAdvance(e.text));
            columnWidth = std::min(widest + 40, width);
            columns = std::max(1, int(width / columnWidth));
            line = fm.height() + 3;
            const int rows = int((entries.size() + std::size_t(columns) - 1) / std::size_t(columns));
            if (rows * line <= size.height() / 3.0)
                break;
        }
        const int rows = int((entries.size() + std::size_t(columns) - 1) / std::size_t(columns));
        const qreal height = rows * line + 8;
        const qreal top = size.height() - footer - height + 4;
        const QFontMetricsF fm(font);
        for (std::size_t k = 0; k < entries.size(); ++k) {
            const Entry& e = entries[k];
            // the column is the whole number of rows before it (an integer division on purpose)
            const qreal x = 10 + qreal(k / std::size_t(rows)) * columnWidth, // NOLINT(bugprone-integer-division)
                y = top + qreal(k % std::size_t(rows)) * line;
            const qreal mid = y + line / 2;
            QPen pen = e.pen;
            pen.setWidthF(std::min(pen.widthF(), 2.4));
            scene.addLine(QLineF(x, mid, x + 24, mid), pen);
            if (e.knot) {
                // the engine's marker, a white rim round it as on the chart
                auto* knot = e.hollow ? scene.addPath(markerPath(*e.knot, 8), QPen(pen.color(), 1.4), Qt::white)
                                      : scene.addPath(markerPath(*e.knot, 8), QPen(Qt::white, 0.9), pen.color());
                knot->setPos(x + 12, mid);
            }
            auto* text = scene.addSimpleText(fm.elidedText(e.text, Qt::ElideMiddle, columnWidth - 36), font);
            text->setBrush(e.faint ? QColor(120, 120, 120) : QColor(30, 30, 30));
            text->setPos(x + 30, mid - fm.height() / 2);
        }
        return height;
    }
};

} // namespace chartexportparts

namespace {

// The title of an SVG or PDF document: the caption's two lines on one.
QString documentTitle(const ChartCaption& caption)
{
    if (caption.title.isEmpty())
        return QStringLiteral("Paretoscope frontier chart");
    return caption.subtitle.isEmpty() ? caption.title : caption.title + QStringLiteral(" · ") + caption.subtitle;
}

} // namespace

QString scopeTitle(const ScopeData& data)
{
    const Scope& scope = data.scope;
    QStringList title;
    title << QString::fromStdString(modelDisplayName(scope.model));
    title << (scope.isl ? QStringLiteral("ISL %1 / OSL %2").arg(*scope.isl).arg(scope.osl.value_or(0))
                        : QString::fromStdString(scope.workload));
    std::set<std::string> precisions(scope.precisions.begin(), scope.precisions.end());
    if (precisions.empty())
        for (const GroupFrontier& g : data.frontiers)
            precisions.insert(g.key.precision);
    QStringList precisionNames;
    for (const std::string& p : precisions)
        precisionNames << precisionName(p);
    if (!precisionNames.isEmpty())
        title << precisionNames.join(QStringLiteral(", "));
    return title.join(QStringLiteral(" · "));
}

QRectF exportedPlotArea(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, const ChartCaption& caption)
{
    const ExportSurface light; // a document's chart: light whatever the window's theme
    const chartexportparts::StagedChart staged(std::move(data), state, pricing, size, caption);
    return staged.chart->plotArea();
}

std::vector<QRectF> exportedLabelBoxes(std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption)
{
    const ExportSurface light; // a document's chart: light whatever the window's theme
    const chartexportparts::StagedChart staged(std::move(data), state, pricing, size, caption);
    return staged.chart->marker().labelBoxes();
}

QString chartFormatSuffix(ChartFormat format)
{
    switch (format) {
    case ChartFormat::Svg:
        return QStringLiteral("svg");
    case ChartFormat::Pdf:
        return QStringLiteral("pdf");
    case ChartFormat::Png:
        break;
    }
    return QStringLiteral("png");
}

std::vector<ExportSize> exportSizes(QSize screen, QSize asOnScreen)
{
    std::vector<ExportSize> sizes;
    // a slide's picture laid out at two thirds of its pixels: type and lines 1.5 times as large, legible when the
    // slide is projected
    sizes.push_back({ QObject::tr("Slide 16:9"), QSize(1920, 1080), 1.5 });
    sizes.push_back({ QObject::tr("Slide 4:3"), QSize(1440, 1080), 1.5 });
    if (screen.width() >= 100 && screen.height() >= 100)
        sizes.push_back({ QObject::tr("This screen"), screen, 1 });
    if (asOnScreen.width() >= 100 && asOnScreen.height() >= 100)
        sizes.push_back({ QObject::tr("As on screen, every legend entry"), asOnScreen * 2, 2 });
    return sizes;
}

QString exportSizeText(const ExportSize& size)
{
    return QStringLiteral("%1 (%2 x %3)").arg(size.name).arg(size.pixels.width()).arg(size.pixels.height());
}

QSize chartExportSize(const std::shared_ptr<const ScopeData>& data, const ChartState& state,
    const PricingCatalog& pricing, QSize view, qreal plotHeight, const ChartCaption& caption)
{
    // taller by what the plot lacks, laid out again: a taller picture may give the legend larger type (it keeps to a
    // third of the height), so a few rounds
    QSize size = view;
    for (int round = 0; round < 4; ++round) {
        const qreal lacks = plotHeight - exportedPlotArea(data, state, pricing, size, caption).height();
        if (lacks < 1)
            break;
        size.rheight() += int(std::ceil(lacks));
    }
    return size;
}

// at most 256 million pixels (1 GiB at 4 bytes a pixel): a larger picture is refused before it is allocated (an
// allocation of tens of GB failed, or was granted and paged the machine to a halt)
constexpr double kMostPixels = 256e6;

struct StagedExport::Stage {
    chartexportparts::StagedChart chart;
    Stage(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing, QSize size,
        const ChartCaption& caption)
        : chart(std::move(data), state, pricing, size, caption)
    {
    }
};

StagedExport::StagedExport(std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, qreal scale, const ChartCaption& caption, QSize pixels)
    : m_pixels(pixels.isValid() ? pixels : (QSizeF(size) * scale).toSize())
{
    if (!fits())
        return;
    const ExportSurface light; // a document's chart: light whatever the window's theme
    m_stage = std::make_unique<Stage>(std::move(data), state, pricing, size, caption);
}

StagedExport::~StagedExport() = default;

bool StagedExport::fits() const
{
    return double(m_pixels.width()) * double(m_pixels.height()) <= kMostPixels;
}

std::function<PlotPicture::Drawn()> StagedExport::cloudDrawing()
{
    if (!m_stage || !m_stage->chart.chart->cloud())
        return [] { return PlotPicture::Drawn {}; };
    return m_stage->chart.chart->cloud()->exportDrawing(1);
}

void StagedExport::takeCloud(PlotPicture::Drawn drawn)
{
    if (m_stage && m_stage->chart.chart->cloud())
        m_stage->chart.chart->cloud()->takeExportPicture(std::move(drawn), 1);
}

QImage StagedExport::render()
{
    if (!m_stage)
        return {};
    QImage image(m_pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return image; // not granted: exportChartPng says so
    const ExportSurface light;
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    QGraphicsScene& scene = m_stage->chart.scene;
    scene.render(&p, QRectF(QPointF(0, 0), QSizeF(image.size())), scene.sceneRect());
    return image;
}

QImage renderChart(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, qreal scale, const ChartCaption& caption)
{
    StagedExport staged(std::move(data), state, pricing, size, scale, caption);
    return staged.render();
}

Status exportChartPng(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, qreal scale, const ChartCaption& caption)
{
    const QImage image = renderChart(std::move(data), state, pricing, size, scale, caption);
    if (image.isNull()) {
        const QSize pixels = (QSizeF(size) * scale).toSize();
        return Error { QString(path
            + QStringLiteral(": a picture of %1 x %2 pixels (%3 x %4 at %5x) is more than can be ")
                  .arg(pixels.width())
                  .arg(pixels.height())
                  .arg(size.width())
                  .arg(size.height())
                  .arg(scale)
            + QStringLiteral("drawn: ask for a smaller size or scale; nothing was written"))
                           .toStdString() };
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !image.save(&f, "PNG") || !f.commit())
        return Error { QString(path + QStringLiteral(": cannot write the PNG: ") + f.errorString()).toStdString() };
    return ok();
}

namespace {

// A vector picture of the staged chart written whole or not at all: draw paints it onto the device it makes on the
// file (false where the device cannot be painted on).
Status writeVector(const QString& path, const QString& kind, const std::function<bool(QSaveFile&)>& draw)
{
    QSaveFile f(path);
    const QString cannot = path + QStringLiteral(": cannot write the %1").arg(kind);
    if (!f.open(QIODevice::WriteOnly))
        return Error { QString(cannot + QStringLiteral(": ") + f.errorString()).toStdString() };
    if (!draw(f))
        return Error { cannot.toStdString() };
    if (!f.commit())
        return Error { QString(cannot + QStringLiteral(": ") + f.errorString()).toStdString() };
    return ok();
}

// Renders the staged chart through a painter on device, size x size in its units.
bool renderOn(QPaintDevice& device, chartexportparts::StagedChart& staged, QSize size)
{
    QPainter p(&device);
    if (!p.isActive())
        return false;
    p.setRenderHint(QPainter::Antialiasing);
    staged.scene.render(&p, QRectF(QPointF(0, 0), QSizeF(size)), staged.scene.sceneRect());
    return true;
}

} // namespace

Status exportChartSvg(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption)
{
    const ExportSurface light; // a document's chart: light whatever the window's theme
    chartexportparts::StagedChart staged(std::move(data), state, pricing, size, caption);
    return writeVector(path, QStringLiteral("SVG"), [&](QSaveFile& f) {
        QSvgGenerator svg;
        svg.setOutputDevice(&f);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(documentTitle(caption));
        svg.setDescription(caption.source);
        return renderOn(svg, staged, size);
    });
}

Status exportChartPdf(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption)
{
    const ExportSurface light;
    chartexportparts::StagedChart staged(std::move(data), state, pricing, size, caption);
    return writeVector(path, QStringLiteral("PDF"), [&](QSaveFile& f) {
        // one page the picture's size, a point per pixel of its layout: vector lines and text, the run cloud the one
        // image, as in the SVG
        QPdfWriter pdf(&f);
        pdf.setResolution(72);
        pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
            QPageLayout::Portrait, QMarginsF()));
        pdf.setTitle(documentTitle(caption));
        pdf.setCreator(QStringLiteral("Paretoscope"));
        return renderOn(pdf, staged, size);
    });
}

Status writeTextFile(const QString& path, const std::string& text)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !f.commit())
        return Error { QString(path + QStringLiteral(": cannot write: ") + f.errorString()).toStdString() };
    return ok();
}

} // namespace paretoscope::ui
