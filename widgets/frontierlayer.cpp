#include "frontierlayer.h"

#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "groupstyle.h"
#include "threadpriority.h"

namespace paretoscope::ui {

FrontierLayer::FrontierLayer(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_anchor(anchor)
{
    setZValue(4); // Qt Charts' own series stand here: over the grid and the axes' lines, under the marker
    connect(chart, &QChart::plotAreaChanged, this, &FrontierLayer::invalidate);
    connect(&m_watcher, &QFutureWatcher<Picture>::finished, this, [this] {
        m_drawing = 0;
        adopt(m_watcher.result());
    });
}

void FrontierLayer::setContent(Content content)
{
    m_content = std::make_shared<const Content>(std::move(content));
    m_dirty = true;
    ++m_generation;
    update();
}

void FrontierLayer::invalidate()
{
    m_dirty = true;
    ++m_generation;
    m_placedGeneration = m_generation; // a picture drawn before stands in the wrong place from now on
    prepareGeometryChange();
    m_bounds = m_chart->plotArea().adjusted(-kMargin, -kMargin, kMargin, kMargin);
    update();
}

QRectF FrontierLayer::boundingRect() const
{
    return m_bounds;
}

namespace {

// A line's points in pixels, in runs broken where a point has no place (off a log axis)
std::vector<QPolygonF> placed(const std::vector<Point>& points, const AxisMap& x, const AxisMap& y)
{
    std::vector<QPolygonF> runs(1);
    for (const Point& p : points) {
        const QPointF at(x.place(p.x), y.place(p.y));
        if (std::isfinite(at.x()) && std::isfinite(at.y()))
            runs.back().append(at);
        else if (!runs.back().isEmpty())
            runs.emplace_back();
    }
    return runs;
}

QPolygonF bandOutline(const FrontierLayer::Band& band, const AxisMap& x, const AxisMap& y)
{
    QPolygonF outline;
    for (const QPolygonF& run : placed(band.high, x, y))
        outline += run;
    const std::vector<QPolygonF> low = placed(band.low, x, y);
    for (auto run = low.rbegin(); run != low.rend(); ++run)
        for (auto p = run->rbegin(); p != run->rend(); ++p)
            outline.append(*p);
    return outline;
}

} // namespace

void FrontierLayer::draw(QPainter& painter, const Snapshot& s)
{
    const QRectF plot(QPointF(0, 0), s.size);
    const QRectF knotsInside = plot.adjusted(-0.5, -0.5, 0.5, 0.5);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setClipRect(plot, painter.hasClipping() ? Qt::IntersectClip : Qt::ReplaceClip);
    painter.setPen(Qt::NoPen);
    for (const Band& band : s.content->bands) {
        if (!band.visible || band.high.empty() || band.low.empty())
            continue;
        painter.setBrush(band.fill);
        painter.drawPolygon(bandOutline(band, s.x, s.y));
    }
    for (const Line& line : s.content->lines) {
        if (!line.visible)
            continue;
        const std::vector<QPolygonF> runs = placed(line.points, s.x, s.y);
        painter.setPen(line.pen);
        painter.setBrush(Qt::NoBrush);
        for (const QPolygonF& run : runs)
            painter.drawPolyline(run);
        if (!line.knot)
            continue;
        // a knot at the plot's edge is drawn whole, over the edge (kMargin), as Qt Charts' markers were
        painter.save();
        painter.setClipping(false);
        for (const QPolygonF& run : runs)
            for (const QPointF& at : run)
                if (knotsInside.contains(at))
                    drawMarker(painter, at, *line.knot, 7.0, line.pen.color(), line.hollow);
        painter.restore();
    }
    painter.restore();
}

FrontierLayer::Snapshot FrontierLayer::snapshot(qreal dpr) const
{
    Snapshot s;
    s.content = m_content;
    s.size = m_chart->plotArea().size();
    std::tie(s.x, s.y) = plotMaps(*m_chart, *m_anchor);
    s.dpr = dpr;
    s.generation = m_generation;
    s.placedGeneration = m_placedGeneration;
    return s;
}

FrontierLayer::Picture FrontierLayer::drawPicture(const Snapshot& s)
{
    Picture out;
    out.generation = s.generation;
    out.placedGeneration = s.placedGeneration;
    const QSizeF size = s.size + QSizeF(2 * kMargin, 2 * kMargin);
    out.image = QImage((size * s.dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
    out.image.setDevicePixelRatio(s.dpr);
    out.image.fill(Qt::transparent);
    QPainter p(&out.image);
    p.translate(kMargin, kMargin);
    draw(p, s);
    return out;
}

void FrontierLayer::adopt(Picture picture)
{
    if (picture.generation != m_generation)
        return; // the content, plot or axes moved on while it was drawn: the next paint asks again
    m_picture = std::move(picture);
    m_dirty = false;
    update();
    emit pictureArrived();
}

void FrontierLayer::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF area = m_chart->plotArea();
    const bool onScreen = painter->device() && painter->device()->devType() == QInternal::Widget;
    if (!onScreen) {
        // an export, a print or SVG: the lines now, as paths, as the rest of the chart is drawn
        painter->save();
        painter->translate(area.topLeft());
        draw(*painter, snapshot(1));
        painter->restore();
        return;
    }
    const qreal dpr = painter->device()->devicePixelRatioF();
    const QSizeF size = area.size() + QSizeF(2 * kMargin, 2 * kMargin);
    if (m_picture.image.size() != (size * dpr).toSize())
        m_dirty = true;
    if (m_dirty && m_drawing != m_generation) {
        m_drawing = m_generation;
        m_watcher.setFuture(QtConcurrent::run(&drawingPool(), [s = snapshot(dpr)] {
            runBehindTheGui(); // the plot's other items paint meanwhile
            return drawPicture(s);
        }));
    }
    // new points or a new style: the lines shown stay until the new ones arrive; a picture of other axes or another
    // plot would stand in the wrong place
    if (!m_picture.image.isNull() && m_picture.placedGeneration == m_placedGeneration
        && m_picture.image.size() == (size * dpr).toSize())
        painter->drawImage(area.topLeft() - QPointF(kMargin, kMargin), m_picture.image);
}

} // namespace paretoscope::ui
