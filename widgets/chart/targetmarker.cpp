#include "widgets/chart/targetmarker.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QFontMetricsF>
#include <QPainter>

#include "widgets/common/theme.h"

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
    // the same marker again (a scope read again with nothing changed) repaints nothing: a repaint of its region would
    // draw what lies under its old and new bounds again for nothing
    if (m_placed && x == m_x && readings == m_readings && caption == m_caption)
        return;
    m_placed = true;
    prepareGeometryChange(); // the old bounds and the new ones are all that is repainted
    m_x = x;
    m_readings = std::move(readings);
    m_caption = std::move(caption);
    layout();
    update();
}

void TargetMarker::relayout()
{
    prepareGeometryChange();
    layout();
    update();
}

QRectF TargetMarker::boundingRect() const
{
    return m_bounds;
}

QFont TargetMarker::labelFont() const
{
    QFont f = m_chart->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    f.setBold(true);
    return f;
}

void TargetMarker::layout()
{
    // where everything goes is worked out here, once per change, so that the bounds are exactly what paint() draws:
    // a slider step repaints the old and the new marker, not the plot
    const QRectF area = m_chart->plotArea();
    m_circles.clear();
    m_labels.clear();
    m_captionBox = {};
    m_bounds = {};
    if (m_x <= 0) // never placed (a TTFT axis has no marker): nothing to map, and a log axis has no 0
        return;
    m_px = m_chart->mapToPosition(QPointF(m_x, 1), m_anchor).x();
    if (!(m_px >= area.left() && m_px <= area.right()))
        return;
    const QFontMetricsF bold(labelFont());
    for (const Reading& r : m_readings) {
        const double x = r.x > 0 ? r.x : m_x;
        const QPointF pos(r.x > 0 ? m_chart->mapToPosition(QPointF(x, r.y), m_anchor).x() : m_px,
            m_chart->mapToPosition(QPointF(x, r.y), m_anchor).y());
        if (!area.adjusted(-1, -1, 1, 1).contains(pos))
            continue;
        m_circles.push_back({ pos, r.colour, r.deployable });
        if (r.label.isEmpty())
            continue;
        QRectF box = bold.boundingRect(r.label).adjusted(-3, -1, 3, 1);
        box.moveBottomLeft(pos + QPointF(8, -4));
        if (box.right() > area.right())
            box.moveRight(pos.x() - 8);
        m_labels.push_back({ box, &r, pos });
    }
    placeInside(area);
    if (!m_caption.isEmpty()) {
        QFont f = labelFont();
        f.setBold(false);
        // a few short lines, right of the marker or left of it, and always inside the plot
        QRectF box = QFontMetricsF(f)
                         .boundingRect(QRectF(0, 0, 2000, 2000), Qt::AlignLeft | Qt::TextWordWrap, m_caption)
                         .adjusted(-4, -2, 4, 2);
        box.moveTopLeft(QPointF(m_px + 6, area.top() + 4));
        if (box.right() > area.right())
            box.moveRight(m_px - 6);
        if (box.left() < area.left())
            box.moveLeft(area.left() + 2);
        m_captionBox = box;
    }
    QRectF bounds(m_px - 8, area.top() - 2, 16, area.height() + 4); // the line and the circles on it
    for (const Circle& c : m_circles) // a deployable reading may stand off the line, at its faster point
        bounds |= QRectF(c.centre - QPointF(8, 8), QSizeF(16, 16));
    for (const Placed& l : m_labels)
        bounds |= l.box.adjusted(-2, -2, 2, 2);
    if (!m_captionBox.isEmpty())
        bounds |= m_captionBox.adjusted(-2, -2, 2, 2);
    m_bounds = bounds.intersected(clip());
}

void TargetMarker::placeInside(const QRectF& area)
{
    // every label inside the plot: first into it, then each moved down past the one above it that it overlaps, then
    // those pushed under the plot's bottom moved back up over it, each above the one under it (an export of nine
    // hardware read low on the chart left the lowest labels under the x axis, cut or over its title)
    const auto overlap = [](const QRectF& a, const QRectF& b) {
        return a.top() < b.bottom() + 1 && b.top() < a.bottom() + 1 && a.left() < b.right() && b.left() < a.right();
    };
    const auto stack = [&] {
        for (Placed& l : m_labels) {
            if (l.box.top() < area.top())
                l.box.moveTop(area.top());
            if (l.box.bottom() > area.bottom())
                l.box.moveBottom(area.bottom());
        }
        std::sort(m_labels.begin(), m_labels.end(),
            [](const Placed& a, const Placed& b) { return a.box.top() < b.box.top(); });
        // a label moved past one may then meet another already passed: each is moved until it meets none (a move
        // is always the same way, so this ends)
        for (std::size_t i = 1; i < m_labels.size(); ++i)
            for (bool moved = true; moved;) {
                moved = false;
                for (std::size_t j = 0; j < i; ++j)
                    if (overlap(m_labels[i].box, m_labels[j].box)) {
                        m_labels[i].box.moveTop(m_labels[j].box.bottom() + 1);
                        moved = true;
                    }
            }
        for (std::size_t i = m_labels.size(); i-- > 0;) {
            QRectF& box = m_labels[i].box;
            if (box.bottom() > area.bottom())
                box.moveBottom(area.bottom());
            for (bool moved = true; moved;) {
                moved = false;
                for (std::size_t j = i + 1; j < m_labels.size(); ++j)
                    if (overlap(box, m_labels[j].box)) {
                        box.moveBottom(m_labels[j].box.top() - 1);
                        moved = true;
                    }
            }
        }
    };
    stack();
    // more labels than the plot is tall: the ones still above it go to the marker's other side, stacked there in
    // turn (with one configuration's readings beside the frontiers' a plot can hold twice as many labels)
    bool moved = false;
    for (Placed& l : m_labels)
        if (l.box.top() < area.top()) {
            const qreal w = l.box.width();
            const bool right = l.box.left() > m_px;
            l.box.moveLeft(right ? m_px - 8 - w : m_px + 8);
            moved = true;
        }
    if (moved)
        stack();
}

std::vector<QRectF> TargetMarker::labelBoxes() const
{
    std::vector<QRectF> boxes;
    boxes.reserve(m_labels.size());
    for (const Placed& l : m_labels)
        boxes.push_back(l.box);
    return boxes;
}

QRectF TargetMarker::clip() const
{
    return m_chart->plotArea().adjusted(-6, -6, 6, 6);
}

void TargetMarker::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_bounds.isEmpty())
        return;
    const QRectF area = m_chart->plotArea();
    painter->save();
    painter->setClipRect(clip());
    painter->setRenderHint(QPainter::Antialiasing);
    const ChartColours theme = chartColours();
    painter->setPen(QPen(theme.text, 1.2, Qt::DashLine));
    painter->drawLine(QPointF(m_px, area.top()), QPointF(m_px, area.bottom()));
    for (const Circle& c : m_circles) {
        if (c.deployable) { // one configuration's reading: a filled diamond
            painter->setPen(QPen(theme.plot, 1.2));
            painter->setBrush(c.colour);
            const QPointF p = c.centre;
            const QPointF diamond[] = { p + QPointF(0, -7), p + QPointF(7, 0), p + QPointF(0, 7), p + QPointF(-7, 0) };
            painter->drawPolygon(diamond, 4);
            continue;
        }
        painter->setPen(QPen(c.colour, 2.5));
        painter->setBrush(theme.plot);
        painter->drawEllipse(c.centre, 5.5, 5.5);
    }
    QFont f = labelFont();
    painter->setFont(f);
    for (const Placed& l : m_labels) {
        // a label moved off its circle (stacked past others, kept inside the plot) is tied to it by a thin line, so
        // that no value is read beside another hardware's circle
        const QPointF near(l.box.left() > l.anchor.x() ? l.box.left() : l.box.right(), l.box.center().y());
        if (std::abs(near.y() - (l.anchor.y() - 4 - l.box.height() / 2)) > l.box.height() * 0.75) {
            const QPointF from = l.anchor + 6.5 * (near - l.anchor) / std::max(1.0, QLineF(l.anchor, near).length());
            painter->setPen(QPen(l.reading->colour, 1.1));
            painter->drawLine(from, near);
        }
    }
    for (const Placed& l : m_labels) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(theme.labelBox);
        painter->drawRoundedRect(l.box, 3, 3);
        painter->setPen(theme.dark ? l.reading->colour.lighter(125) : l.reading->colour.darker(130));
        painter->drawText(l.box, Qt::AlignCenter, l.reading->label);
    }
    if (!m_captionBox.isEmpty()) {
        f.setBold(false);
        painter->setFont(f);
        painter->setPen(Qt::NoPen);
        painter->setBrush(theme.labelBox);
        painter->drawRoundedRect(m_captionBox, 3, 3);
        painter->setPen(theme.text);
        painter->drawText(m_captionBox.adjusted(4, 2, -4, -2), Qt::AlignLeft | Qt::TextWordWrap, m_caption);
    }
    painter->restore();
}

} // namespace paretoscope::ui
