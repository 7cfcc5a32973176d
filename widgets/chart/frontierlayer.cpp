#include "widgets/chart/frontierlayer.h"

#include <QPainter>
#include <cmath>

#include "widgets/common/groupstyle.h"

namespace paretoscope::ui {

FrontierLayer::FrontierLayer(QChart* chart, QAbstractSeries* anchor)
    : PlotPicture(chart, anchor, kMargin, true)
{
    setZValue(4); // Qt Charts' own series stand here: over the grid and the axes' lines, under the marker
}

void FrontierLayer::setContent(Content content)
{
    m_content = std::make_shared<const Content>(std::move(content));
    redraw();
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

void FrontierLayer::draw(QPainter& painter, const Content& content, const Frame& frame)
{
    const QRectF plot(QPointF(0, 0), frame.size);
    const QRectF knotsInside = plot.adjusted(-0.5, -0.5, 0.5, 0.5);
    // bands and lines cut at the plot's edges within whatever clip the painter has (a view's exposed region); knots
    // under that clip only, so that one at the edge is drawn whole, over the edge (kMargin), as Qt Charts' markers were
    const Qt::ClipOperation cut = painter.hasClipping() ? Qt::IntersectClip : Qt::ReplaceClip;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.save();
    painter.setClipRect(plot, cut);
    painter.setPen(Qt::NoPen);
    for (const Band& band : content.bands) {
        if (!band.visible || band.high.empty() || band.low.empty())
            continue;
        painter.setBrush(band.fill);
        painter.drawPolygon(bandOutline(band, frame.x, frame.y));
    }
    painter.restore();
    for (const Line& line : content.lines) {
        if (!line.visible)
            continue;
        // the line cut at the axes' ranges first: zoomed far in, points a million pixels away drew a dashed pen
        // solid, and SVG does not clip
        const std::vector<Point> inView
            = clipPolyline(line.points, frame.x.lo, frame.x.hi, frame.y.lo, frame.y.hi, frame.x.log, frame.y.log);
        painter.save();
        painter.setClipRect(plot, cut);
        painter.setPen(line.pen);
        painter.setBrush(Qt::NoBrush);
        for (const QPolygonF& run : placed(inView, frame.x, frame.y))
            painter.drawPolyline(run);
        painter.restore();
        if (!line.knot)
            continue;
        for (const QPolygonF& run : placed(line.knots, frame.x, frame.y))
            for (const QPointF& at : run)
                if (knotsInside.contains(at))
                    drawMarker(painter, at, *line.knot, 7.0, line.pen.color(), line.hollow);
    }
    painter.restore();
}

std::function<PlotPicture::Drawn(const PlotPicture::Frame&)> FrontierLayer::drawer() const
{
    return [content = m_content](const Frame& frame) {
        return Drawn { image(frame, kMargin, [&](QPainter& p) { draw(p, *content, frame); }), {} };
    };
}

void FrontierLayer::paintNow(QPainter& painter, const Frame& frame)
{
    // the lines now, as paths, as the rest of the chart is drawn
    painter.save();
    painter.translate(frame.topLeft);
    draw(painter, *m_content, frame);
    painter.restore();
}

void FrontierLayer::paintMoved(QPainter& painter, const Frame& frame)
{
    // zoomed or resized: the lines drawn here until their picture for the new axes comes, not left out (as Qt Charts'
    // lines never were)
    paintNow(painter, frame);
}

} // namespace paretoscope::ui
