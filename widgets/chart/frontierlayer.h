#pragma once

#include <QPen>
#include <memory>
#include <optional>

#include "core/analysis/chartdata.h"
#include "widgets/common/hardwarecolors.h"
#include "widgets/common/plotpicture.h"

namespace paretoscope::ui {

/// The groups' frontiers with their knots, the bands of their reruns' spread and the speed-of-light bounds, drawn as
/// one picture on a pool thread (PlotPicture): a paint of the plot copies it. New points or a restyle leave the lines
/// on screen until their new picture arrives; a zoom or a resize draws them at once meanwhile. Exports, prints and SVG
/// draw them as paths.
class FrontierLayer : public PlotPicture {
    Q_OBJECT
public:
    /// chart: the chart whose axes place the points; anchor: a series attached to those axes.
    FrontierLayer(QChart* chart, QAbstractSeries* anchor);

    /// A line through points in chart values, with markers in a shape (the pen's colour) at knots where knot is set.
    struct Line {
        std::vector<Point> points;
        std::vector<Point> knots;
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

    /// Knots at the plot's edge are drawn whole: the picture reaches this far past it (in pixels).
    static constexpr qreal kMargin = 6;
    /// Draws the content with the plot's top left at the painter's origin: lines cut at the axes' ranges, bands at the
    /// plot's edges (by the painter's clip, which SVG ignores), knots whole where their centre is inside the plot.
    static void draw(QPainter& painter, const Content& content, const Frame& frame);

protected:
    std::function<Drawn(const Frame&)> drawer() const override;
    void paintNow(QPainter& painter, const Frame& frame) override;
    void paintMoved(QPainter& painter, const Frame& frame) override;

private:
    std::shared_ptr<const Content> m_content = std::make_shared<Content>();
};

} // namespace paretoscope::ui
