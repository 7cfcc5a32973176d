#pragma once

#include <QChart>
#include <QFutureWatcher>
#include <QGraphicsObject>
#include <QImage>
#include <QPen>
#include <memory>
#include <optional>

#include "core/analysis/chartdata.h"
#include "hardwarecolors.h"
#include "plotmap.h"

namespace paretoscope::ui {

/// The groups' frontiers with their knots, the bands of their reruns' spread and the speed-of-light bounds, drawn as
/// one item: one picture where Qt Charts made an item per series, each stroking its path on the GUI thread (or
/// filling and blending a pixmap the size of the plot) whenever the plot was painted. On screen the picture is drawn
/// on a pool thread, as the run cloud's is: a new scope, an import or a restyled line cost the GUI thread a copy of it,
/// and the lines follow a moment later. Renders to an image, a printer or SVG draw the lines at once, as paths.
class FrontierLayer : public QGraphicsObject {
    Q_OBJECT
public:
    /// chart: the chart whose axes place the points; anchor: a series attached to those axes.
    FrontierLayer(QChart* chart, QAbstractSeries* anchor);

    /// A line through points in chart values, with its knots in a marker's shape (the pen's colour) where knot is set.
    struct Line {
        std::vector<Point> points;
        QPen pen;
        std::optional<MarkerShape> knot;
        bool hollow = false;
        bool visible = true;
    };
    /// The area between two lines (a frontier's highs and lows), filled.
    struct Band {
        std::vector<Point> high, low;
        QColor fill;
        bool visible = true;
    };
    /// What is drawn: every band, under every line, in order.
    struct Content {
        std::vector<Band> bands;
        std::vector<Line> lines;
    };
    void setContent(Content content);
    const Content& content() const { return *m_content; }
    /// The plot or the axes moved: the picture is drawn again, and the item's bounds follow the plot area.
    void invalidate();
    /// Whether the picture in hand is the one the content, plot and axes ask for (false while it is being drawn).
    bool ready() const { return !m_dirty; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Knots at the plot's edge are drawn whole: the picture reaches this far past it (in pixels).
    static constexpr qreal kMargin = 6;
    /// Everything a picture is drawn from, copied so that a pool thread can draw it.
    struct Snapshot {
        std::shared_ptr<const Content> content;
        QSizeF size; ///< the plot area's
        AxisMap x, y;
        qreal dpr = 1;
        quint64 generation = 0;
        quint64 placedGeneration = 0; ///< that of the plot and axes it was drawn for
    };
    /// Draws the content with the plot's top left at the painter's origin: lines and bands cut at the plot's edges,
    /// knots whole where their centre is inside it.
    static void draw(QPainter& painter, const Snapshot& s);

signals:
    /// A picture drawn on a pool thread arrived and was painted.
    void pictureArrived();

private:
    struct Picture {
        QImage image;
        quint64 generation = 0;
        quint64 placedGeneration = 0;
    };
    Snapshot snapshot(qreal dpr) const;
    static Picture drawPicture(const Snapshot& s);
    void adopt(Picture picture);
    QChart* m_chart;
    QAbstractSeries* m_anchor;
    std::shared_ptr<const Content> m_content = std::make_shared<Content>();
    QRectF m_bounds; ///< those the scene has indexed: changed only after prepareGeometryChange() (see RunCloud)
    Picture m_picture;
    bool m_dirty = true;
    quint64 m_generation = 1; // of what the picture should show
    quint64 m_placedGeneration = 1; // that of the last change of plot or axes
    quint64 m_drawing = 0; // the generation a pool thread is drawing, 0 when none
    QFutureWatcher<Picture> m_watcher;
};

} // namespace paretoscope::ui
