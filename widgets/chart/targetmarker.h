#pragma once

#include <QAbstractSeries>
#include <QChart>
#include <QGraphicsObject>
#include <string>

namespace paretoscope::ui {

/// The vertical marker at the slider's target, with the value read on each frontier that covers it.
class TargetMarker : public QGraphicsObject {
    Q_OBJECT
public:
    struct Reading {
        double y = 0;
        QColor colour;
        QString label; ///< the value as the readout prints it
        std::string hardware;
        /// One configuration's reading (a filled diamond) where it differs from the frontier's: at x (axis units) when
        /// above 0, a faster measured point that meets the target; else on the marker's line.
        bool deployable = false;
        double x = 0;
        bool operator==(const Reading&) const = default;
    };
    TargetMarker(QChart* chart, QAbstractSeries* anchor);
    /// x in axis units; readings in axis units of y; a caption is written at the top of the line.
    void setMarker(double x, std::vector<Reading> readings, QString caption = {});
    const QString& caption() const { return m_caption; }
    double x() const { return m_x; }
    const std::vector<Reading>& readings() const { return m_readings; }

    /// Where the value labels stand (scene coordinates of the chart), every one inside the plot area.
    std::vector<QRectF> labelBoxes() const;
    /// The plot area or the axes changed: the marker's place and bounds follow.
    void relayout();

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    struct Placed {
        QRectF box;
        const Reading* reading;
        QPointF anchor; ///< the circle it reads
    };
    struct Circle {
        QPointF centre;
        QColor colour;
        bool deployable = false; ///< drawn as a diamond
    };
    void layout();
    void placeInside(const QRectF& area);
    QFont labelFont() const;
    QRectF clip() const;
    QRectF m_bounds; // as indexed by the scene: changed only after prepareGeometryChange()
    QChart* m_chart;
    QAbstractSeries* m_anchor;
    double m_x = 0;
    bool m_placed = false; // setMarker() was called
    std::vector<Reading> m_readings;
    QString m_caption;
    // laid out by layout(), drawn by paint()
    qreal m_px = 0;
    std::vector<Circle> m_circles;
    std::vector<Placed> m_labels;
    QRectF m_captionBox;
};

} // namespace paretoscope::ui
