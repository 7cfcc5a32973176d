#include "runcloud.h"

#include <QChart>
#include <QPainter>

namespace paretoscope::ui {

RunCloud::RunCloud(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_anchor(anchor)
{
    setZValue(-1); // under the frontier lines
    connect(chart, &QChart::plotAreaChanged, this, &RunCloud::invalidate);
}

void RunCloud::setGroups(std::vector<std::vector<Point>> points, std::vector<QColor> colours)
{
    m_points = std::move(points);
    m_colours = std::move(colours);
    m_visible.assign(m_points.size(), true);
    invalidate();
}

void RunCloud::setGroupVisible(std::size_t group, bool visible)
{
    if (group < m_visible.size() && m_visible[group] != visible) {
        m_visible[group] = visible;
        invalidate();
    }
}

void RunCloud::invalidate()
{
    m_dirty = true;
    prepareGeometryChange();
    m_bounds = m_chart->plotArea();
    update();
}

QRectF RunCloud::boundingRect() const
{
    return m_bounds;
}

void RunCloud::rebuild(qreal dpr) const
{
    const QRectF area = m_chart->plotArea();
    m_cache = QPixmap((area.size() * dpr).toSize());
    m_cache.setDevicePixelRatio(dpr);
    m_cache.fill(Qt::transparent);
    m_placed.clear();
    QPainter p(&m_cache);
    p.setRenderHint(QPainter::Antialiasing);
    for (std::size_t g = 0; g < m_points.size(); ++g) {
        if (!m_visible[g])
            continue;
        QColor c = m_colours[g];
        c.setAlpha(70);
        // a run marked as not trusted (failed requests, a timeout) is a hollow ring, drawn stronger so it is seen
        QColor ring = m_colours[g];
        ring.setAlpha(200);
        const QPen ringPen(ring, 1.2);
        for (const Point& pt : m_points[g]) {
            const QPointF pos = m_chart->mapToPosition(QPointF(pt.x, pt.y), m_anchor);
            if (!area.adjusted(-2, -2, 2, 2).contains(pos))
                continue;
            if (pt.marked) {
                p.setPen(ringPen);
                p.setBrush(Qt::NoBrush);
                p.drawEllipse(pos - area.topLeft(), 3.2, 3.2);
            } else {
                p.setPen(Qt::NoPen);
                p.setBrush(c);
                p.drawEllipse(pos - area.topLeft(), 2.2, 2.2);
            }
            m_placed.emplace_back(pos, pt.runId);
        }
    }
    m_dirty = false;
}

void RunCloud::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    // drawn at the device's pixel ratio (and at least 2, for 2x exports through a scaled painter)
    const qreal dpr = std::max<qreal>(2.0, painter->device() ? painter->device()->devicePixelRatioF() : 1.0);
    if (m_dirty || m_cache.size() != (m_chart->plotArea().size() * dpr).toSize())
        rebuild(dpr);
    painter->drawPixmap(m_chart->plotArea().topLeft(), m_cache);
}

long long RunCloud::runAt(QPointF local) const
{
    long long best = 0;
    qreal bestDist = 6.0 * 6.0;
    for (const auto& [pos, id] : m_placed) {
        const QPointF d = pos - local;
        const qreal dist = d.x() * d.x() + d.y() * d.y();
        if (dist < bestDist) {
            bestDist = dist;
            best = id;
        }
    }
    return best;
}

} // namespace paretoscope::ui
