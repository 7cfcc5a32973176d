#include "targetmarker.h"

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

void TargetMarker::setMarker(double x, std::vector<Reading> readings)
{
    prepareGeometryChange(); // the old strip and the new one are all that is repainted
    m_x = x;
    m_readings = std::move(readings);
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
    return QRectF(px - 160, area.top() - 8, 320, area.height() + 16);
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
    for (const Reading& r : m_readings) {
        const QPointF pos(px, m_chart->mapToPosition(QPointF(m_x, r.y), m_anchor).y());
        if (!area.adjusted(-1, -1, 1, 1).contains(pos))
            continue;
        painter->setPen(QPen(r.colour, 2.5));
        painter->setBrush(Qt::white);
        painter->drawEllipse(pos, 5.5, 5.5);
        const QString text = r.label;
        if (text.isEmpty())
            continue;
        QRectF box = painter->fontMetrics().boundingRect(text).adjusted(-3, -1, 3, 1);
        box.moveBottomLeft(pos + QPointF(8, -4));
        if (box.right() > area.right())
            box.moveRight(pos.x() - 8);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 215));
        painter->drawRoundedRect(box, 3, 3);
        painter->setPen(r.colour.darker(130));
        painter->drawText(box, Qt::AlignCenter, text);
    }
    painter->restore();
}

} // namespace paretoscope::ui
