#pragma once

#include <QAbstractSeries>
#include <QChart>
#include <QFutureWatcher>
#include <QGraphicsObject>
#include <QImage>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace paretoscope::ui {

/// How one axis places a value along its pixels (as Qt Charts' domains do, linear or logarithmic), copied so that a
/// pool thread can place values.
struct AxisMap {
    double lo = 0, hi = 1;
    bool log = false;
    double pixels = 1;
    bool flip = false; ///< y: values grow upwards
    /// The value's pixel along the plot, from its left or top edge; NaN off a log axis or on an empty range.
    double place(double v) const;
};

/// A picture over a chart's plot area that is drawn on a pool thread when it is painted on screen (the run cloud, the
/// frontiers' layer): a new scope, an import, a restyle or a zoom cost the GUI thread a copy of a picture, and the
/// picture follows a moment later. Renders to an image, a printer or SVG draw it at once (paintNow).
class PlotPicture : public QGraphicsObject {
    Q_OBJECT
public:
    /// What a picture is drawn for, copied from the chart: the plot area and the maps of the axes.
    struct Frame {
        QPointF topLeft; ///< the plot area's, in chart coordinates
        QSizeF size;
        AxisMap x, y;
        qreal dpr = 1;
        /// How far the plot's top left less the margin lies past the device pixel the image is copied to.
        QPointF offset;
    };
    /// A picture drawn: the image (the plot area and the margin around it) and, for a picture of runs, where each
    /// stands in chart coordinates.
    struct Drawn {
        QImage image;
        std::vector<std::pair<QPointF, long long>> placed;
    };

    /// The plot or the axes moved: the picture is drawn again, and the item's bounds follow the plot area.
    void invalidate();
    /// An export's picture drawn ahead, off the GUI thread (the replay's frames): exportDrawing copies what an export
    /// painter of pixel ratio `dpr` would draw now (GUI thread), the function it returns draws it on any thread, and
    /// takeExportPicture hands the picture back (GUI thread): the next export paint at that ratio copies it in place
    /// of drawing it. Pictures that exports draw otherwise (the frontiers' paths) ignore it.
    std::function<Drawn()> exportDrawing(qreal dpr);
    void takeExportPicture(Drawn drawn, qreal dpr);
    /// Runs such a drawing on the pictures' pool (its threads behind the GUI's).
    static QFuture<Drawn> drawAhead(std::function<Drawn()> drawing);
    /// Whether the picture in hand is the one the content, the plot and the axes ask for (false while it is drawn).
    bool ready() const { return !m_dirty; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    /// A picture drawn on a pool thread arrived and was painted.
    void pictureArrived();

protected:
    /// chart: the chart whose axes place the content; anchor: a series attached to those axes; margin: how far past
    /// the plot area the picture reaches; keepShown: whether the picture in hand stays on screen while the next one
    /// is drawn for new content (for the same plot and axes).
    PlotPicture(QChart* chart, QAbstractSeries* anchor, qreal margin, bool keepShown);
    /// What is shown changed: the picture is drawn again.
    void redraw();
    /// What draws the picture of the content as it is now, from copies of it: run on a pool thread.
    virtual std::function<Drawn(const Frame&)> drawer() const = 0;
    /// Draws the content at once with a painter that is not the screen's (the plot's top left at frame.topLeft).
    virtual void paintNow(QPainter& painter, const Frame& frame);
    /// What is painted on screen after the plot or the axes moved (a zoom, a resize), while the picture for them is
    /// drawn: nothing by default.
    virtual void paintMoved(QPainter& painter, const Frame& frame);
    /// The frame as the chart stands now.
    Frame frame(qreal dpr) const;
    const Drawn& drawn() const { return m_drawn; }
    /// Forgets where the points of the picture in hand stand (a deleted run must not answer a tooltip).
    void forgetPlaced() { m_drawn.placed.clear(); }
    /// Draws a picture: an image of the frame's size and the margin at its pixel ratio, then fill(painter) with the
    /// plot's top left at the painter's origin.
    static QImage image(const Frame& frame, qreal margin, const std::function<void(QPainter&)>& fill);

private:
    void adopt(Drawn drawn, quint64 generation);
    /// Where the picture's top left goes for a plot whose top left is topLeft: on a device pixel, so that the copy is
    /// not moved by a fraction of one (Qt rounds it: the lines stood 0.44 px off the grid).
    QPointF origin(QPointF topLeft, qreal dpr) const;
    static QSize imageSize(QSizeF plot, qreal margin, qreal dpr);
    /// The item's bounds about a plot area: all that a picture copied onto it may cover.
    QRectF boundsFor(const QRectF& plot) const;
    QChart* m_chart;
    QAbstractSeries* m_anchor;
    qreal m_margin;
    bool m_keepShown;
    // The bounds the scene has indexed: they change only after prepareGeometryChange(), never under the scene's
    // feet (a bounding rect read live from the chart left the scene's index pointing at the item after it was
    // deleted: the crash of zoom, reset and a rebuild)
    QRectF m_bounds;
    Drawn m_drawn;
    bool m_dirty = true;
    quint64 m_generation = 1; // of what the picture should show: a change of content, plot or axes moves it on
    quint64 m_placedGeneration = 1; // that of the last change of plot or axes
    quint64 m_drawnGeneration = 0, m_drawnPlaced = 0; // those of the picture in hand
    quint64 m_drawing = 0; // the generation a pool thread is drawing, 0 when none
    QFutureWatcher<std::pair<Drawn, quint64>> m_watcher;
    // an export's picture drawn ahead, the ratio and generation it was drawn for
    std::optional<Drawn> m_ahead;
    qreal m_aheadDpr = 0;
    quint64 m_aheadGeneration = 0; ///< the generation exportDrawing copied
};

} // namespace paretoscope::ui
