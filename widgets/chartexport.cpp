#include "chartexport.h"

#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace paretoscope::ui {

namespace {

// A chart of its own in a scene of its own, laid out at the requested size.
struct StagedChart {
    QGraphicsScene scene;
    FrontierChart* chart;
    StagedChart(std::shared_ptr<const ScopeData> data, ChartState state, const PricingCatalog& pricing, QSize size)
    {
        scene.setItemIndexMethod(QGraphicsScene::NoIndex); // as the view's (chartpanel.cpp)
        state.request.pixelsWide = size.width();
        state.request.pixelsHigh = size.height();
        chart = new FrontierChart(std::move(data), state, pricing);
        scene.addItem(chart); // the scene owns it
        chart->setGeometry(QRectF(QPointF(0, 0), size));
        if (chart->layout())
            chart->layout()->activate();
        scene.setSceneRect(QRectF(QPointF(0, 0), size));
    }
};

} // namespace

QImage renderChart(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
    QSize size, qreal scale)
{
    StagedChart staged(std::move(data), state, pricing, size);
    QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    staged.scene.render(&p, QRectF(QPointF(0, 0), QSizeF(image.size())), staged.scene.sceneRect());
    return image;
}

Status exportChartPng(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size, qreal scale)
{
    const QImage image = renderChart(std::move(data), state, pricing, size, scale);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !image.save(&f, "PNG") || !f.commit())
        return Error { (path + QStringLiteral(": cannot write the PNG: ") + f.errorString()).toStdString() };
    return ok();
}

Status exportChartSvg(const QString& path, std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, QSize size)
{
    StagedChart staged(std::move(data), state, pricing, size);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Error { (path + QStringLiteral(": cannot write the SVG: ") + f.errorString()).toStdString() };
    QSvgGenerator svg;
    svg.setOutputDevice(&f);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(QStringLiteral("Paretoscope frontier chart"));
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
