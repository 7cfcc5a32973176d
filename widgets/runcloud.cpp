#include "runcloud.h"

#include <QChart>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>
#include <tuple>

#include "groupstyle.h"
#include "threadpriority.h"

namespace paretoscope::ui {

RunCloud::RunCloud(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_anchor(anchor)
{
    setZValue(-1); // under the frontier lines
    connect(chart, &QChart::plotAreaChanged, this, &RunCloud::invalidate);
    connect(&m_watcher, &QFutureWatcher<Picture>::finished, this, [this] {
        m_drawing = 0;
        adopt(m_watcher.result());
    });
}

void RunCloud::setGroups(std::vector<Group> groups)
{
    m_visible.assign(groups.size(), true);
    m_groups = std::make_shared<const std::vector<Group>>(std::move(groups));
    invalidate();
}

void RunCloud::replaceGroups(std::vector<Group> groups)
{
    if (groups.size() != m_visible.size())
        return setGroups(std::move(groups));
    m_groups = std::make_shared<const std::vector<Group>>(std::move(groups));
    // the old picture stays on screen until the new one is drawn, but its runs no longer answer a tooltip (a deleted
    // one would be looked up in the store)
    m_picture.placed.clear();
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
    ++m_generation;
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

RunCloud::Snapshot RunCloud::snapshot(qreal dpr) const
{
    Snapshot s;
    s.groups = m_groups;
    s.visible = m_visible;
    const QRectF area = m_chart->plotArea();
    s.topLeft = area.topLeft();
    s.size = area.size();
    std::tie(s.x, s.y) = plotMaps(*m_chart, *m_anchor);
    s.dpr = dpr;
    s.generation = m_generation;
    return s;
}

RunCloud::Picture RunCloud::draw(const Snapshot& s)
{
    Picture out;
    out.generation = s.generation;
    out.image = QImage((s.size * s.dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
    out.image.setDevicePixelRatio(s.dpr);
    out.image.fill(Qt::transparent);
    QPainter p(&out.image);
    const QRectF inside = QRectF(QPointF(0, 0), s.size).adjusted(-2, -2, 2, 2);
    for (std::size_t g = 0; g < s.groups->size(); ++g) {
        if (!s.visible[g])
            continue;
        const Group& group = (*s.groups)[g];
        QColor c = group.colour;
        c.setAlpha(80);
        // a run marked as not trusted (failed requests, a timeout) is hollow, drawn stronger so it is seen
        QColor ring = group.colour;
        ring.setAlpha(200);
        // the engine's shape, small: a cloud of one engine reads apart from another's of the same hardware
        const QPainterPath shape = markerPath(group.marker, 5.0);
        const QPainterPath hollow = markerPath(group.marker, 6.5);
        const QImage filled = sprite(shape, Qt::NoPen, c, s.dpr);
        const QImage ringed = sprite(hollow, QPen(ring, 1.1), Qt::NoBrush, s.dpr);
        // the sprites' top left, from a point's centre (the paths are centred on the origin)
        const QPointF filledAt = shape.boundingRect().topLeft() - QPointF(1.5, 1.5);
        const QPointF ringedAt = hollow.boundingRect().topLeft() - QPointF(1.5, 1.5);
        for (const Point& pt : group.points) {
            const QPointF pos(s.x.place(pt.x), s.y.place(pt.y));
            if (!inside.contains(pos)) // NaN (off a log axis) is never inside
                continue;
            p.drawImage(pos + (pt.marked ? ringedAt : filledAt), pt.marked ? ringed : filled);
            out.placed.emplace_back(pos + s.topLeft, pt.runId);
        }
    }
    return out;
}

void RunCloud::adopt(Picture picture)
{
    if (picture.generation != m_generation)
        return; // the plot or the groups moved on while it was drawn: the next paint asks again
    m_picture = std::move(picture);
    m_dirty = false;
    update();
    emit pictureArrived();
}

void RunCloud::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    // drawn at the device's pixel ratio (and at least 2, for 2x exports through a scaled painter)
    const qreal dpr = std::max<qreal>(2.0, painter->device() ? painter->device()->devicePixelRatioF() : 1.0);
    const QRectF area = m_chart->plotArea();
    const QSize wanted = (area.size() * dpr).toSize();
    if (m_dirty || m_picture.image.size() != wanted) {
        m_dirty = true;
        const bool onScreen = painter->device() && painter->device()->devType() == QInternal::Widget;
        if (!onScreen) {
            // an export, a grab or a print: the picture now, as the rest of the chart is drawn
            adopt(draw(snapshot(dpr)));
        } else if (m_drawing != m_generation) {
            m_drawing = m_generation;
            m_watcher.setFuture(QtConcurrent::run(&drawingPool(), [s = snapshot(dpr)] {
                runBehindTheGui(); // the plot's other items paint meanwhile
                return draw(s);
            }));
        }
    }
    if (!m_dirty)
        painter->drawImage(area.topLeft(), m_picture.image);
}

long long RunCloud::runAt(QPointF local) const
{
    long long best = 0;
    qreal bestDist = 6.0 * 6.0;
    for (const auto& [pos, id] : m_picture.placed) {
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
