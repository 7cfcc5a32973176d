#include "chartexport.h"

#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

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
        chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size.width(), size.height() - footer)));
        if (chart->layout())
            chart->layout()->activate();
        scene.setSceneRect(QRectF(QPointF(0, 0), size));
    }
};

} // namespace

QImage renderChart(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, qreal scale, const ChartCaption& caption)
{
    StagedChart staged(std::move(data), state, pricing, size, caption);
    QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
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
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !image.save(&f, "PNG") || !f.commit())
        return Error { (path + QStringLiteral(": cannot write the PNG: ") + f.errorString()).toStdString() };
    return ok();
}

Status exportChartSvg(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, const ChartCaption& caption)
{
    StagedChart staged(std::move(data), state, pricing, size, caption);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Error { (path + QStringLiteral(": cannot write the SVG: ") + f.errorString()).toStdString() };
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
        return Error { (path + QStringLiteral(": cannot write the SVG: ") + f.errorString()).toStdString() };
    return ok();
}

Status writeTextFile(const QString& path, const std::string& text)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !f.commit())
        return Error { (path + QStringLiteral(": cannot write: ") + f.errorString()).toStdString() };
    return ok();
}

} // namespace paretoscope::ui
