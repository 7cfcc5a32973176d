#include "widgets/chart/chartexport.h"

#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cmath>
#include <optional>

#include "widgets/common/groupstyle.h"

namespace paretoscope::ui {

namespace {

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
            chart->setTitle(caption.title.toHtmlEscaped()); // laid out as HTML: imported names shown as written
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

} // namespace

QRectF exportedPlotArea(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, const ChartCaption& caption)
{
    const StagedChart staged(std::move(data), state, pricing, size, caption);
    return staged.chart->plotArea();
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

QImage renderChart(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, qreal scale, const ChartCaption& caption)
{
    // at most 256 million pixels (1 GiB at 4 bytes a pixel): a larger picture is refused before it is allocated (an
    // allocation of tens of GB failed, or was granted and paged the machine to a halt)
    constexpr double kMostPixels = 256e6;
    const QSize pixels = (QSizeF(size) * scale).toSize();
    if (double(pixels.width()) * double(pixels.height()) > kMostPixels)
        return {};
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return image; // not granted: exportChartPng says so
    StagedChart staged(std::move(data), state, pricing, size, caption);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    staged.scene.render(&p, QRectF(QPointF(0, 0), QSizeF(image.size())), staged.scene.sceneRect());
    return image;
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

Status exportChartSvg(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption)
{
    StagedChart staged(std::move(data), state, pricing, size, caption);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Error { QString(path + QStringLiteral(": cannot write the SVG: ") + f.errorString()).toStdString() };
    QSvgGenerator svg;
    svg.setOutputDevice(&f);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(caption.title.isEmpty() ? QStringLiteral("Paretoscope frontier chart") : caption.title);
    svg.setDescription(caption.source);
    {
        QPainter p(&svg);
        p.setRenderHint(QPainter::Antialiasing);
        staged.scene.render(&p, QRectF(QPointF(0, 0), QSizeF(size)), staged.scene.sceneRect());
    }
    if (!f.commit())
        return Error { QString(path + QStringLiteral(": cannot write the SVG: ") + f.errorString()).toStdString() };
    return ok();
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
