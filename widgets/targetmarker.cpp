#include "targetmarker.h"

#include <algorithm>

#include <QChart>
#include <QPainter>

namespace paretoscope::ui {

TargetMarker::TargetMarker(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_anchor(anchor)
{
    setZValue(10);
    connect(chart, &QChart::plotAreaChanged, this, &TargetMarker::relayout);
}

void TargetMarker::setMarker(double x, std::vector<Reading> readings, QString caption)
{
    prepareGeometryChange(); // the old strip and the new one are all that is repainted
    m_x = x;
    m_readings = std::move(readings);
    m_caption = std::move(caption);
    m_bounds = computeBounds();
    update();
}

void TargetMarker::relayout()
{
    prepareGeometryChange();
    m_bounds = computeBounds();
    update();
}

QRectF TargetMarker::boundingRect() const
{
    return m_bounds;
}

QRectF TargetMarker::computeBounds() const
{
    // a strip around the line, wide enough for the labels on either side of it
    const QRectF area = m_chart->plotArea();
    const qreal px = m_chart->mapToPosition(QPointF(m_x, 1), m_anchor).x();
    const qreal half = m_caption.isEmpty() ? 160 : 420; // a caption is wider than the labels
    return QRectF(px - half, area.top() - 8, 2 * half, area.height() + 16);
}

void TargetMarker::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF area = m_chart->plotArea();
    const qreal px = m_chart->mapToPosition(QPointF(m_x, 1), m_anchor).x();
    if (!(px >= area.left() && px <= area.right()))
        return;
    painter->save();
    painter->setClipRect(area.adjusted(-6, -6, 6, 6));
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(QColor(60, 60, 60), 1.2, Qt::DashLine));
    painter->drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
    QFont f = painter->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    f.setBold(true);
    painter->setFont(f);
    // the circles, then the labels, each label moved down past the one above it so that none overlap
    struct Placed {
        QRectF box;
        const Reading* reading;
    };
    std::vector<Placed> labels;
    for (const Reading& r : m_readings) {
        const QPointF pos(px, m_chart->mapToPosition(QPointF(m_x, r.y), m_anchor).y());
        if (!area.adjusted(-1, -1, 1, 1).contains(pos))
            continue;
        painter->setPen(QPen(r.colour, 2.5));
        painter->setBrush(Qt::white);
        painter->drawEllipse(pos, 5.5, 5.5);
        if (r.label.isEmpty())
            continue;
        QRectF box = painter->fontMetrics().boundingRect(r.label).adjusted(-3, -1, 3, 1);
        box.moveBottomLeft(pos + QPointF(8, -4));
        if (box.right() > area.right())
            box.moveRight(pos.x() - 8);
        labels.push_back({ box, &r });
    }
    std::sort(labels.begin(), labels.end(), [](const Placed& a, const Placed& b) { return a.box.top() < b.box.top(); });
    for (std::size_t i = 1; i < labels.size(); ++i) {
        const QRectF& above = labels[i - 1].box;
        QRectF& box = labels[i].box;
        if (box.intersects(above.adjusted(0, 0, 0, 1))
            || (box.top() < above.bottom() && box.left() < above.right() && box.right() > above.left()))
            box.moveTop(above.bottom() + 1);
    }
    for (const Placed& l : labels) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 215));
        painter->drawRoundedRect(l.box, 3, 3);
        painter->setPen(l.reading->colour.darker(130));
        painter->drawText(l.box, Qt::AlignCenter, l.reading->label);
    }
    if (!m_caption.isEmpty()) {
        f.setBold(false);
        painter->setFont(f);
        // a few short lines, right of the marker or left of it, and always inside the plot
        QRectF box = painter->fontMetrics()
                         .boundingRect(QRect(0, 0, 2000, 2000), Qt::AlignLeft | Qt::TextWordWrap, m_caption)
                         .adjusted(-4, -2, 4, 2);
        box.moveTopLeft(QPointF(px + 6, area.top() + 4));
        if (box.right() > area.right())
            box.moveRight(px - 6);
        if (box.left() < area.left())
            box.moveLeft(area.left() + 2);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 225));
        painter->drawRoundedRect(box, 3, 3);
        painter->setPen(QColor(60, 60, 60));
        painter->drawText(box.adjusted(4, 2, -4, -2), Qt::AlignLeft | Qt::TextWordWrap, m_caption);
    }
    painter->restore();
}

} // namespace paretoscope::ui
