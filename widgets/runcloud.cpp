#include "runcloud.h"

#include <QChart>
#include <QImage>
#include <QPainter>

#include "groupstyle.h"

namespace paretoscope::ui {

RunCloud::RunCloud(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_anchor(anchor)
{
    setZValue(-1); // under the frontier lines
    connect(chart, &QChart::plotAreaChanged, this, &RunCloud::invalidate);
}

void RunCloud::setGroups(std::vector<Group> groups)
{
    m_groups = std::move(groups);
    m_visible.assign(m_groups.size(), true);
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

namespace {

// One point's picture, drawn once per group and then copied for each of its points: painting the marker's path for
// each of tens of thousands of points cost the GUI thread tens of milliseconds a rebuild
QImage sprite(const QPainterPath& shape, const QPen& pen, const QBrush& brush, qreal dpr)
{
    const QRectF box = shape.boundingRect().adjusted(-1.5, -1.5, 1.5, 1.5);
    QImage image((box.size() * dpr).toSize() + QSize(1, 1), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(pen);
    p.setBrush(brush);
    p.drawPath(shape.translated(-box.topLeft()));
    return image;
}

} // namespace

void RunCloud::rebuild(qreal dpr) const
{
    const QRectF area = m_chart->plotArea();
    m_cache = QPixmap((area.size() * dpr).toSize());
    m_cache.setDevicePixelRatio(dpr);
    m_cache.fill(Qt::transparent);
    m_placed.clear();
    QPainter p(&m_cache);
    const QRectF inside = area.adjusted(-2, -2, 2, 2);
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        if (!m_visible[g])
            continue;
        QColor c = m_groups[g].colour;
        c.setAlpha(80);
        // a run marked as not trusted (failed requests, a timeout) is hollow, drawn stronger so it is seen
        QColor ring = m_groups[g].colour;
        ring.setAlpha(200);
        // the engine's shape, small: a cloud of one engine reads apart from another's of the same hardware
        const QPainterPath shape = markerPath(m_groups[g].marker, 5.0);
        const QPainterPath hollow = markerPath(m_groups[g].marker, 6.5);
        const QImage filled = sprite(shape, Qt::NoPen, c, dpr);
        const QImage ringed = sprite(hollow, QPen(ring, 1.1), Qt::NoBrush, dpr);
        // the sprites' top left, from a point's centre (the paths are centred on the origin)
        const QPointF filledAt = shape.boundingRect().topLeft() - QPointF(1.5, 1.5) - area.topLeft();
        const QPointF ringedAt = hollow.boundingRect().topLeft() - QPointF(1.5, 1.5) - area.topLeft();
        for (const Point& pt : m_groups[g].points) {
            const QPointF pos = m_chart->mapToPosition(QPointF(pt.x, pt.y), m_anchor);
            if (!inside.contains(pos))
                continue;
            p.drawImage(pos + (pt.marked ? ringedAt : filledAt), pt.marked ? ringed : filled);
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
