#include "widgets/common/groupstyle.h"

#include <QPainter>
#include <QPolygonF>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>

#include "widgets/common/theme.h"

namespace paretoscope::ui {

QColor hardwareColour(const std::string& hardware)
{
    const Rgb c = hardwareRgb(hardware);
    return onChart(QColor(c.r, c.g, c.b)); // lifted on a dark theme's charts and lists
}

Qt::PenStyle precisionStyle(const std::string& precision)
{
    switch (precisionLine(precision)) {
    case LineStyle::Solid:
        return Qt::SolidLine;
    case LineStyle::Dash:
        return Qt::DashLine;
    case LineStyle::Dot:
        return Qt::DotLine;
    case LineStyle::DashDot:
        break;
    }
    return Qt::DashDotLine;
}

MarkerShape groupMarker(const GroupKey& key)
{
    return engineMarker(key.engine);
}

bool hollowMarker(const GroupKey& key)
{
    return !key.specDecoding.empty() && key.specDecoding != "none";
}

namespace {

// a regular polygon of n corners on a circle of radius r, the first corner straight up (or down)
QPolygonF regular(int n, qreal r, bool down = false, qreal inner = 0)
{
    QPolygonF poly;
    const int corners = inner > 0 ? 2 * n : n;
    for (int k = 0; k < corners; ++k) {
        const qreal a = -std::numbers::pi / 2 + k * 2 * std::numbers::pi / corners + (down ? std::numbers::pi : 0);
        const qreal rk = inner > 0 && k % 2 ? inner : r;
        poly << QPointF(rk * std::cos(a), rk * std::sin(a));
    }
    return poly;
}

} // namespace

QPainterPath markerPath(MarkerShape shape, qreal size)
{
    const qreal r = size / 2;
    QPainterPath path;
    switch (shape) {
    case MarkerShape::Circle:
        path.addEllipse(QPointF(0, 0), r, r);
        break;
    case MarkerShape::Square:
        path.addRect(QRectF(-r * 0.88, -r * 0.88, r * 1.76, r * 1.76));
        break;
    case MarkerShape::Triangle:
    case MarkerShape::TriangleDown: {
        // a triangle's centroid sits a third of the way up: moved so that it reads as centred on the point
        QPolygonF t = regular(3, r * 1.3, shape == MarkerShape::TriangleDown);
        t.translate(0, shape == MarkerShape::TriangleDown ? -r * 0.15 : r * 0.15);
        path.addPolygon(t);
        break;
    }
    case MarkerShape::Diamond:
        path.addPolygon(regular(4, r * 1.25));
        break;
    case MarkerShape::Pentagon:
        path.addPolygon(regular(5, r * 1.08));
        break;
    case MarkerShape::Star:
        path.addPolygon(regular(5, r * 1.35, false, r * 0.6));
        break;
    case MarkerShape::Cross: {
        const qreal w = r * 0.42;
        path.addRect(QRectF(-r, -w, 2 * r, 2 * w));
        path.addRect(QRectF(-w, -r, 2 * w, 2 * r));
        path.setFillRule(Qt::WindingFill);
        path = path.simplified();
        break;
    }
    }
    path.closeSubpath();
    return path;
}

void drawMarker(QPainter& painter, QPointF centre, MarkerShape shape, qreal size, const QColor& colour, bool hollow)
{
    const QPainterPath path = markerPath(shape, size).translated(centre);
    if (hollow) {
        painter.setPen(QPen(colour, std::max<qreal>(1.0, size / 6)));
        painter.setBrush(QColor(255, 255, 255, colour.alpha()));
    } else {
        // a white rim keeps a marker apart from the line it sits on and from its neighbours
        painter.setPen(QPen(QColor(255, 255, 255, colour.alpha()), std::max<qreal>(0.6, size / 9)));
        painter.setBrush(colour);
    }
    painter.drawPath(path);
}

QImage markerImage(MarkerShape shape, const QColor& colour, bool hollow, int pixels)
{
    // a chart's build asks for one per group and again for each restyled one (0.5 to 1 ms of a new scope's build):
    // each look (a few hardware colours, faint or not, engines, fills) is drawn once and then shared
    thread_local std::map<std::tuple<int, quint64, bool, int>, QImage> drawn;
    const auto key = std::make_tuple(int(shape), quint64(colour.rgba64()), hollow, pixels);
    if (const auto it = drawn.find(key); it != drawn.end())
        return it->second;
    QImage image(pixels, pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        // the shape a little inside the picture, so that its rim is not cut
        drawMarker(p, QPointF(pixels / 2.0, pixels / 2.0), shape, pixels * 0.78, colour, hollow);
    }
    return drawn[key] = image;
}

} // namespace paretoscope::ui
