#pragma once

#include <QAbstractSeries>
#include <QChart>
#include <QGraphicsObject>
#include <QPixmap>

#include "core/analysis/chartdata.h"
#include "hardwarecolors.h"

namespace paretoscope::ui {

/// Every run in scope as faint points, drawn as one item (a scatter series would make an item per point). The points
/// come thinned by core to what the plot's pixels can show; the picture is cached until the axes or the plot move.
class RunCloud : public QGraphicsObject {
    Q_OBJECT
public:
    /// chart: the chart whose axes place the points; anchor: a series attached to those axes.
    RunCloud(QChart* chart, QAbstractSeries* anchor);
    /// One group's runs as drawn: its hardware's colour and its engine's marker (groupstyle.h), faint.
    struct Group {
        std::vector<Point> points;
        QColor colour;
        MarkerShape marker = MarkerShape::Circle;
    };
    void setGroups(std::vector<Group> groups);
    void setGroupVisible(std::size_t group, bool visible);
    /// The run under a position in chart coordinates (within a few pixels), or 0.
    long long runAt(QPointF chartPos) const;
    /// The plot or the axes moved: the picture is drawn again, and the item's bounds follow the plot area.
    void invalidate();

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void rebuild(qreal devicePixelRatio) const;
    QChart* m_chart;
    QAbstractSeries* m_anchor;
    std::vector<Group> m_groups;
    std::vector<bool> m_visible;
    // The bounds the scene has indexed: they change only after prepareGeometryChange(), never under the scene's
    // feet (a bounding rect read live from the chart left the scene's index pointing at the item after it was
    // deleted: the crash of zoom, reset and a rebuild)
    QRectF m_bounds;
    mutable QPixmap m_cache;
    mutable bool m_dirty = true;
    mutable std::vector<std::pair<QPointF, long long>> m_placed; // scene position of each drawn point
};

} // namespace paretoscope::ui
