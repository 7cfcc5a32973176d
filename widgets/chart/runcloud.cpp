#include "widgets/chart/runcloud.h"

#include <QPainter>

#include "widgets/common/groupstyle.h"

namespace paretoscope::ui {

RunCloud::RunCloud(QChart* chart, QAbstractSeries* anchor)
    : PlotPicture(chart, anchor, 0, true)
{
    setZValue(-1); // under the frontier lines
}

void RunCloud::setGroups(std::vector<Group> groups, const std::vector<bool>& visible)
{
    if (visible.size() == groups.size())
        m_visible = visible;
    else
        m_visible.assign(groups.size(), true);
    m_groups = std::make_shared<const std::vector<Group>>(std::move(groups));
    redraw();
}

void RunCloud::replaceGroups(std::vector<Group> groups)
{
    if (groups.size() != m_visible.size())
        return setGroups(std::move(groups));
    m_groups = std::make_shared<const std::vector<Group>>(std::move(groups));
    // the old picture stays on screen until the new one is drawn, but its runs no longer answer a tooltip (a deleted
    // one would be looked up in the store)
    forgetPlaced();
    redraw();
}

void RunCloud::setGroupVisible(std::size_t group, bool visible)
{
    if (group < m_visible.size() && m_visible[group] != visible) {
        m_visible[group] = visible;
        redraw();
    }
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

std::function<PlotPicture::Drawn(const PlotPicture::Frame&)> RunCloud::drawer() const
{
    return [groups = m_groups, visible = m_visible](const Frame& frame) { return draw(*groups, visible, frame); };
}

PlotPicture::Drawn RunCloud::draw(
    const std::vector<Group>& groups, const std::vector<bool>& visible, const Frame& frame)
{
    Drawn out;
    out.image = image(frame, 0, [&](QPainter& p) {
        const QRectF inside = QRectF(QPointF(0, 0), frame.size).adjusted(-2, -2, 2, 2);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (!visible[g])
                continue;
            const Group& group = groups[g];
            QColor c = group.colour;
            c.setAlpha(80);
            // a run marked as not trusted (failed requests, a timeout) is hollow, drawn stronger so it is seen
            QColor ring = group.colour;
            ring.setAlpha(200);
            // the engine's shape, small: a cloud of one engine reads apart from another's of the same hardware
            const QPainterPath shape = markerPath(group.marker, 5.0);
            const QPainterPath hollow = markerPath(group.marker, 6.5);
            const QImage filled = sprite(shape, Qt::NoPen, c, frame.dpr);
            const QImage ringed = sprite(hollow, QPen(ring, 1.1), Qt::NoBrush, frame.dpr);
            // the sprites' top left, from a point's centre (the paths are centred on the origin)
            const QPointF filledAt = shape.boundingRect().topLeft() - QPointF(1.5, 1.5);
            const QPointF ringedAt = hollow.boundingRect().topLeft() - QPointF(1.5, 1.5);
            for (const Point& pt : group.points) {
                const QPointF pos(frame.x.place(pt.x), frame.y.place(pt.y));
                if (!inside.contains(pos)) // NaN (off a log axis) is never inside
                    continue;
                p.drawImage(pos + (pt.marked ? ringedAt : filledAt), pt.marked ? ringed : filled);
                out.placed.emplace_back(pos + frame.topLeft, pt.runId);
            }
        }
    });
    return out;
}

long long RunCloud::runAt(QPointF local) const
{
    long long best = 0;
    qreal bestDist = 6.0 * 6.0;
    for (const auto& [pos, id] : placed()) {
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
