#pragma once

#include <memory>

#include "core/analysis/chartdata.h"
#include "widgets/common/hardwarecolors.h"
#include "widgets/common/plotpicture.h"

namespace paretoscope::ui {

/// Every run in scope as faint points, drawn as one picture (a scatter series would make an item per point). The
/// points come thinned by core to what the plot's pixels can show; the picture is drawn on a pool thread
/// (PlotPicture), so that a new scope or a zoom costs the GUI thread no more than its frontiers.
class RunCloud : public PlotPicture {
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
    /// The groups, each shown where its flag in visible is set (all shown where visible is empty).
    void setGroups(std::vector<Group> groups, const std::vector<bool>& visible = {});
    /// New points for the same groups: which are switched off stays.
    void replaceGroups(std::vector<Group> groups);
    void setGroupVisible(std::size_t group, bool visible);
    /// The run under a position in chart coordinates (within a few pixels), or 0.
    long long runAt(QPointF chartPos) const;
    /// Where each drawn point stands in chart coordinates, with its run.
    const std::vector<std::pair<QPointF, long long>>& placed() const { return drawn().placed; }

protected:
    std::function<Drawn(const Frame&)> drawer() const override;

private:
    static Drawn draw(const std::vector<Group>& groups, const std::vector<bool>& visible, const Frame& frame);
    std::shared_ptr<const std::vector<Group>> m_groups = std::make_shared<std::vector<Group>>();
    std::vector<bool> m_visible;
};

} // namespace paretoscope::ui
