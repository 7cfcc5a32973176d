#pragma once

#include <QAbstractSeries>
#include <QChart>
#include <QFutureWatcher>
#include <QGraphicsObject>
#include <QImage>
#include <memory>

#include "core/analysis/chartdata.h"
#include "hardwarecolors.h"
#include "plotmap.h"

namespace paretoscope::ui {

/// Every run in scope as faint points, drawn as one item (a scatter series would make an item per point). The points
/// come thinned by core to what the plot's pixels can show; the picture is cached until the axes or the plot move.
/// On screen the picture is drawn on a pool thread, so that a new scope or a zoom costs the GUI thread no more than
/// its frontiers: the cloud follows a moment later. Renders to an image, a printer or SVG draw it at once.
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
    /// New points for the same groups: which are switched off stays.
    void replaceGroups(std::vector<Group> groups);
    void setGroupVisible(std::size_t group, bool visible);
    /// The run under a position in chart coordinates (within a few pixels), or 0.
    long long runAt(QPointF chartPos) const;
    /// The plot or the axes moved: the picture is drawn again, and the item's bounds follow the plot area.
    void invalidate();
    /// Whether the picture in hand is the one the plot and axes ask for (false while it is being drawn).
    bool ready() const { return !m_dirty; }
    /// Where each drawn point stands in chart coordinates, with its run.
    const std::vector<std::pair<QPointF, long long>>& placed() const { return m_picture.placed; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Everything a picture is drawn from, copied so that a pool thread can draw it.
    struct Snapshot {
        std::shared_ptr<const std::vector<Group>> groups;
        std::vector<bool> visible;
        QPointF topLeft; ///< the plot area's, in chart coordinates
        QSizeF size;
        AxisMap x, y;
        qreal dpr = 2;
        quint64 generation = 0;
    };
    struct Picture {
        QImage image;
        std::vector<std::pair<QPointF, long long>> placed; ///< chart position of each drawn point, with its run
        quint64 generation = 0;
    };
    static Picture draw(const Snapshot& s);

signals:
    /// A picture drawn on a pool thread arrived and was painted.
    void pictureArrived();

private:
    Snapshot snapshot(qreal dpr) const;
    void adopt(Picture picture);
    QChart* m_chart;
    QAbstractSeries* m_anchor;
    std::shared_ptr<const std::vector<Group>> m_groups = std::make_shared<std::vector<Group>>();
    std::vector<bool> m_visible;
    // The bounds the scene has indexed: they change only after prepareGeometryChange(), never under the scene's
    // feet (a bounding rect read live from the chart left the scene's index pointing at the item after it was
    // deleted: the crash of zoom, reset and a rebuild)
    QRectF m_bounds;
    Picture m_picture;
    bool m_dirty = true;
    quint64 m_generation = 1; // of what the picture should show; a change of groups, plot or axes moves it on
    quint64 m_drawing = 0; // the generation a pool thread is drawing, 0 when none
    QFutureWatcher<Picture> m_watcher;
};

} // namespace paretoscope::ui
