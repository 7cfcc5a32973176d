#pragma once

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QPointer>
#include <functional>
#include <memory>
#include <set>

#include "chartaxes.h"
#include "core/analysis/chartdata.h"
#include "hardwarecolors.h"
#include "runcloud.h"
#include "targetmarker.h"

namespace paretoscope::ui {

/// What a chart shows besides its data: the axes and pricing of the view, the target, the groups switched off.
struct ChartState {
    ChartRequest request;
    double target = 50;
    std::set<QString> hidden; ///< group labels whose series are switched off in the legend
    bool hideSparse = false; ///< as the readout's: a reading across a wide gap is no hardware's best (bestReading)
};

/// The frontier chart of a loaded scope: each group's frontier as a line (colour per hardware, line style per
/// precision, marker per engine), every run as faint points, and the target marker with the reading on each frontier
/// that covers it. Built the same way for the window and for exports.
class FrontierChart : public QChart {
    Q_OBJECT
public:
    /// drawn: the chart's points for state's request, worked out already (off the GUI thread); null: worked out here.
    FrontierChart(std::shared_ptr<const ScopeData> data, const ChartState& state, const PricingCatalog& pricing,
        std::shared_ptr<const ChartData> drawn = nullptr);

    /// Takes a scope read again whose chart is this one's (its chart data equal to chartData()) and moves the marker
    /// to the target: the readings come from its frontiers from now on; nothing else is rebuilt or repainted.
    void adoptScope(std::shared_ptr<const ScopeData> data, double target);
    /// A scope read again whose chart has the same groups, axis spans and speed-of-light lines as this one (runs
    /// imported or deleted, the bounds moved a little if at all): its points replace those shown, series by series, in
    /// place of a new chart (whose build and first paint held the GUI thread 20 to 25 ms on the bench's scope).
    /// request: this chart's view, for a plot of another size in pixels maybe; drawn: its points worked out off the GUI
    /// thread for it, or null. False, and nothing changed, where the picture differs more.
    bool takePoints(std::shared_ptr<const ScopeData> data, std::shared_ptr<const ChartData> drawn,
        const ChartRequest& request, double target);
    /// Moves the marker; groups whose frontier does not reach the target are drawn faint and named so.
    void setTarget(double target);
    /// Leaves readings across wide gaps out of each hardware's best (the readout's option) and relabels.
    void setHideSparse(bool hide);
    void setGroupVisible(std::size_t group, bool visible);
    bool groupVisible(std::size_t group) const;
    /// Switches a group on or off as its legend entry does, and says so (groupToggled).
    void toggleGroup(std::size_t group, bool visible);
    /// Whether the group's frontier reaches the target (else it is drawn faint).
    bool groupCovers(std::size_t group) const { return m_covers[group]; }
    QColor groupColour(std::size_t group) const { return m_colours[group]; }
    /// The marker of the group's knots and runs: its engine's shape.
    MarkerShape groupShape(std::size_t group) const;
    /// Whether the group's knots are hollow (speculative decoding).
    bool groupHollow(std::size_t group) const;
    /// The group's legend text as plain text (the series' name is HTML-escaped for Qt Charts).
    QString groupName(std::size_t group) const;
    QString speedOfLightName(std::size_t line) const;
    std::size_t groupCount() const { return m_lines.size(); }
    /// The dashed speed-of-light lines, one per hardware and precision with a known bound.
    const std::vector<QLineSeries*>& speedOfLightLines() const { return m_solLines; }
    QLineSeries* line(std::size_t group) const { return m_lines[group]; }
    /// The band of a group's spread of reruns (between its low and high frontiers), or null where it has none.
    QAreaSeries* band(std::size_t group) const { return m_bands[group]; }
    RunCloud* cloud() const { return m_cloud; }
    /// Whether its points were worked out before it was built (by the store worker, with the scope).
    bool pointsGiven() const { return m_pointsGiven; }
    const ChartState& state() const { return m_state; }
    const ChartData& chartData() const { return m_chart; }
    const TargetMarker& marker() const { return *m_marker; }
    /// Labels of the groups whose frontier does not reach the target (drawn faint, their legend entry grey).
    QStringList outsideRange() const;
    /// The run under a position in chart coordinates: a frontier knot or a faint point, or 0.
    long long runAt(QPointF chartPos) const;
    /// Each line and band keeps its last paint in a pixmap from now on, so that a slider step repaints them by copying
    /// (done at the first target change). Not while zoomed; a zoom drops the pixmaps.
    void cacheStillItems();
    /// cacheStillItems, and the lines and bands repainted so that their pixmaps are filled now, once: a view calls it
    /// once the chart has been on screen a moment (and the chart itself, as long after a zoom reset), so that the
    /// first step of a drag does not pay for filling them.
    void fillStillCaches();
    /// Whether the item of every line, band and speed-of-light line was found as it was added: runs imported or
    /// deleted then repaint only the lines and bands they change (else every one, as correct and slower).
    bool stillItemsFound() const;
    static constexpr int kStillFillDelayMs = 500;
    /// Emitted when a legend entry switches a group on or off.
    Q_SIGNAL void groupToggled(const QString& label, bool visible);

private:
    void addSpreadBands();
    void addGroupLines();
    void addSpeedOfLightLines();
    /// The axes of the view; the speed-of-light lines are cut at their edges.
    std::pair<QAbstractAxis*, QAbstractAxis*> addAxes();
    /// The run cloud and the target marker over the plot, following the axes.
    void addOverlays(QAbstractAxis* ax, QAbstractAxis* ay);
    void connectLegend();
    void styleGroup(std::size_t group);
    std::shared_ptr<const ScopeData> m_data;
    ChartState m_state;
    const PricingCatalog& m_pricing;
    ChartData m_chart;
    std::vector<QLineSeries*> m_lines; // one per group of m_chart.series, in order
    std::vector<QAreaSeries*> m_bands; // per group: its spread of reruns under its line, or null
    std::vector<QLineSeries*> m_solLines; // the speed-of-light bounds, after the groups' lines
    std::vector<QColor> m_colours;
    std::vector<bool> m_covers;
    RunCloud* m_cloud = nullptr;
    bool m_pointsGiven = false;
    bool m_built = false; ///< the constructor has finished: a later target is a user's
    bool m_stillCached = false;
    bool m_stillFilled = false; ///< fillStillCaches repainted them since the build or the last zoom
    void setStillCache(QGraphicsItem::CacheMode mode);
    enum StillKind { StillLines = 1, StillBands = 2 };
    /// The series' items whose paint is cached (lines and bands; not the axes' labels), of the kinds asked for.
    void forEachStillItem(const std::function<void(QGraphicsItem*)>& apply, int kinds = StillLines | StillBands);
    /// Adds a line or band and returns the item Qt Charts made for it, or null where it cannot tell which.
    QPointer<QGraphicsObject> addStillSeries(QAbstractSeries* series, StillKind kind);
    /// Per group (null where none or not found), and per speed-of-light line: the items that paint them.
    std::vector<QPointer<QGraphicsObject>> m_lineItems, m_bandItems, m_solItems;
    /// The axes' spans for a chart's bounds in this chart's view.
    std::pair<AxisSpan, AxisSpan> spansFor(const ChartData& chart) const;
    std::pair<AxisSpan, AxisSpan> m_spans; ///< those of the axes shown
    void axisRangeChanged(); ///< a zoomed chart's lines are not cached: their cached paint is not clipped to the plot
    TargetMarker* m_marker = nullptr;
};

/// Axis titles of a view: "Interactivity (tok/s/user)", "Time to first token, median (s)", "tok/s/GPU (total
/// tokens)" and so on.
QString xAxisTitle(const ChartRequest& request);
/// The x axis in a few words for a caption: "interactivity", "median TTFT" ...
QString xAxisName(const ChartRequest& request);
QString yAxisTitle(const ChartRequest& request, TputMetric metric);

} // namespace paretoscope::ui
