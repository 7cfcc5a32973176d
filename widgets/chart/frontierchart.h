#pragma once

#include <QChart>
#include <QLineSeries>
#include <memory>
#include <set>

#include "core/analysis/chartdata.h"
#include "core/analysis/envelope.h"
#include "widgets/chart/chartaxes.h"
#include "widgets/chart/frontierlayer.h"
#include "widgets/chart/runcloud.h"
#include "widgets/chart/targetmarker.h"
#include "widgets/common/hardwarecolors.h"

namespace paretoscope::ui {

/// Which groups a chart draws: every one; one per hardware as the InferenceX site's "best per SKU" picks it (core's
/// bestPerHardware); or per hardware its envelope, each group drawn only over the stretch of x where it is the
/// hardware's best (core's hardwareEnvelopes: the readout's best at every interactivity). Auto is best per hardware
/// where more than a dozen groups are in scope.
enum class ChartGroups { Auto, All, BestPerHardware, Envelope };
/// Groups in scope above which Auto draws one per hardware.
inline constexpr std::size_t kAutoBestAbove = 12;

/// A value in the y axis's units as the marker's labels give it: "10,762", "$0.057", "0.38 J".
QString chartValueText(double y, ChartY kind);

/// What a chart shows besides its data: the axes and pricing of the view, the target, the groups switched off.
struct ChartState {
    ChartRequest request;
    double target = 50;
    std::set<QString> hidden; ///< group labels whose series are switched off in the legend
    bool hideSparse = false; ///< as the readout's: a reading across a wide gap is no hardware's best (bestReading)
    /// As the readout's Reading box: with one configuration's, each hardware's deployable reading is marked (a diamond
    /// at its point, labelled with the readout's number) and the frontier's label says "frontier" where they differ.
    Reading reading = Reading::Deployable;
    ChartGroups groups = ChartGroups::Auto;
    bool operator==(const ChartState&) const = default;
};

/// The frontier chart of a loaded scope: each group's frontier as a line (colour per hardware, line style per
/// precision, marker per engine), every run as faint points, and the target marker with the reading on each frontier
/// that covers it. Built the same way for the window and for exports. Qt Charts gives it its axes; the lines, bands
/// and bounds are drawn by one FrontierLayer, the runs by one RunCloud.
class FrontierChart : public QChart {
    Q_OBJECT
public:
    /// drawn: the chart's points for state's request, worked out already (off the GUI thread); null: worked out here.
    FrontierChart(std::shared_ptr<const ScopeData> data, ChartState state, const PricingCatalog& pricing,
        const std::shared_ptr<const ChartData>& drawn = nullptr);

    /// Takes a scope read again whose chart is this one's (its chart data equal to chartData()) and moves the marker
    /// to the target: the readings come from its frontiers from now on; nothing else is rebuilt or repainted.
    void adoptScope(std::shared_ptr<const ScopeData> data, double target);
    /// A scope read again whose chart has the same groups, axis spans and speed-of-light lines as this one (runs
    /// imported or deleted, the bounds moved a little if at all): its points replace those shown, group by group, in
    /// place of a new chart (a build and first paint of the GUI thread's; the lines' picture is drawn again off it).
    /// request: this chart's view, for a plot of another size in pixels maybe; drawn: its points worked out off the GUI
    /// thread for it, or null. False, and nothing changed, where the picture differs more.
    /// Whether takePoints would take a scope whose chart points are `next` (worked out for `request`).
    bool canTakePoints(const ScopeData& data, const ChartData& next, const ChartRequest& request);
    bool takePoints(std::shared_ptr<const ScopeData> data, const std::shared_ptr<const ChartData>& drawn,
        const ChartRequest& request, double target);
    /// Moves the marker; groups whose frontier does not reach the target are drawn faint and named so.
    void setTarget(double target);
    /// Back to the whole plot, each axis ticking as it was built.
    void resetZoom();
    /// Leaves readings across wide gaps out of each hardware's best (the readout's option) and relabels.
    void setHideSparse(bool hide);
    /// Which reading the labels give as the readout's (ChartState::reading), and relabels.
    void setReading(Reading reading);
    void setGroupVisible(std::size_t group, bool visible);
    bool groupVisible(std::size_t group) const;
    /// Whether the group is among those the chart's group choice draws (every group unless one per hardware).
    bool groupChosen(std::size_t group) const { return m_chosen[group]; }
    /// The choice in effect (Auto resolved) and how many groups it draws.
    ChartGroups groupChoice() const { return m_choice; }
    std::size_t chosenCount() const;
    /// Switches a group on or off as its legend entry does, and says so (groupToggled).
    void toggleGroup(std::size_t group, bool visible);
    /// Whether the group's frontier reaches the target (else it is drawn faint).
    bool groupCovers(std::size_t group) const { return m_covers[group]; }
    QColor groupColour(std::size_t group) const { return m_colours[group]; }
    /// The marker of the group's knots and runs: its engine's shape.
    MarkerShape groupShape(std::size_t group) const;
    /// Whether the group's knots are hollow (speculative decoding).
    bool groupHollow(std::size_t group) const;
    /// The group's legend text, as plain text.
    QString groupName(std::size_t group) const;
    /// The accuracy that comes with a group (docs/evaluations.md), on the task required or the model's first:
    /// "GSM8K 95.4% ± 0.6", "GSM8K: not evaluated"; empty where the model has no evaluations.
    QString groupAccuracy(std::size_t group) const;
    /// The pen of the group's line as drawn now (faint and thin where it does not reach the target).
    QPen groupPen(std::size_t group) const { return m_content.lines[group].pen; }
    std::size_t groupCount() const { return m_chart->series.size(); }
    /// The dashed speed-of-light lines, one per hardware and precision with a known bound.
    std::size_t speedOfLightCount() const { return m_chart->speedOfLight.size(); }
    QString speedOfLightName(std::size_t line) const;
    QPen speedOfLightPen(std::size_t line) const { return solLine(line).pen; }
    bool speedOfLightVisible(std::size_t line) const { return solLine(line).visible; }
    void setSpeedOfLightVisible(std::size_t line, bool visible);
    /// Whether any of the bound lies within the axes (a linear view may have it all above).
    bool speedOfLightInView(std::size_t line) const { return !solLine(line).points.empty(); }
    /// What the lines, bands and bounds are drawn from: content().lines holds the groups' lines in order, then the
    /// speed-of-light lines; content().bands one per group (empty where it has no spread of reruns).
    FrontierLayer* layer() const { return m_layer; }
    RunCloud* cloud() const { return m_cloud; }
    /// An invisible series attached to the axes: what mapToPosition places chart values by.
    QAbstractSeries* anchor() const { return m_anchor; }
    /// Whether its points were worked out by the store worker, with the scope (before it was built, or equal to those
    /// of a scope read again that it adopted).
    bool pointsGiven() const { return m_pointsGiven; }
    const ChartState& state() const { return m_state; }
    const ChartData& chartData() const { return *m_chart; }
    const TargetMarker& marker() const { return *m_marker; }
    /// The envelopes drawn in the Envelope choice (empty otherwise), stretches indexing the groups.
    const std::vector<HardwareEnvelope>& envelopes() const { return m_envelopes; }
    /// In the Envelope choice, what the stretch under a position (chart coordinates, within 6 pixels of its line)
    /// is: "B200 · TensorRT-LLM · FP4 · MTP: the best of B200 from 31 to 86 tok/s/user"; empty where none is.
    QString stretchAt(QPointF chartPos) const;
    /// In the best-per-hardware choice, the hardware whose best reading at the target (the readout's) comes from a
    /// group not drawn: their labels read the group drawn, the readout another (names as shown, in order).
    const QStringList& readElsewhere() const { return m_readElsewhere; }
    /// Labels of the groups whose frontier does not reach the target (drawn faint, their legend entry grey).
    QStringList outsideRange() const;
    /// The run under a position in chart coordinates: a frontier knot or a faint point, or 0.
    long long runAt(QPointF chartPos) const;
    /// Emitted when a legend entry switches a group on or off.
    Q_SIGNAL void groupToggled(const QString& label, bool visible);

private:
    /// Which groups the readout reads: every group the legend has not switched off.
    std::vector<bool> countedGroups() const;
    /// The marker's readings at a target on the interactivity axis (shown: the groups drawn); notes in
    /// m_readElsewhere the hardware whose readout reading is a group not drawn.
    std::vector<TargetMarker::Reading> markerReadings(double target, const std::vector<bool>& shown);
    /// One configuration's reading per hardware beside the frontiers' circles (ChartState::reading Deployable).
    void addDeployableReadings(double target, std::vector<TargetMarker::Reading>& readings) const;
    /// The first half of canTakePoints, known before the points: the view, the metric, no zoom, no envelope.
    bool viewTakes(const ScopeData& data, const ChartRequest& request);
    void addSpreadBands();
    void addGroupLines();
    void addSpeedOfLightLines();
    /// The axes of the view; the speed-of-light lines are cut at their edges.
    std::pair<QAbstractAxis*, QAbstractAxis*> addAxes();
    /// The anchor, the lines' layer, the run cloud and the target marker over the plot, following the axes; the run
    /// cloud shows the groups visible (one flag per group).
    void addOverlays(QAbstractAxis* ax, QAbstractAxis* ay, const std::vector<bool>& visible);
    void styleGroup(std::size_t group);
    /// The speed-of-light line's points cut at the axes' edges.
    std::vector<Point> solInView(const std::vector<Point>& points) const;
    const FrontierLayer::Line& solLine(std::size_t line) const
    {
        return m_content.lines[m_chart->series.size() + line];
    }
    /// The groups of the choice (state's, Auto resolved for the scope's groups), from the scope's frontiers.
    void chooseGroups();
    /// In the Envelope choice, each group's line cut to its stretches (broken between them), its knots within them.
    void drawEnvelopes();
    /// Whether x lies in one of the group's envelope stretches.
    bool inStretch(std::size_t group, double x) const;
    std::vector<HardwareEnvelope> m_envelopes;
    QStringList m_readElsewhere;
    std::vector<bool> m_chosen;
    ChartGroups m_choice = ChartGroups::All;
    std::shared_ptr<const ScopeData> m_data;
    ChartState m_state;
    const PricingCatalog& m_pricing;
    std::shared_ptr<const ChartData> m_chart;
    FrontierLayer::Content m_content; ///< what the layer draws, restyled here and handed over whole
    std::vector<QColor> m_colours;
    std::vector<bool> m_covers;
    QLineSeries* m_anchor = nullptr;
    FrontierLayer* m_layer = nullptr;
    RunCloud* m_cloud = nullptr;
    bool m_pointsGiven = false;
    /// The axes' spans for a chart's bounds in this chart's view.
    std::pair<AxisSpan, AxisSpan> spansFor(const ChartData& chart) const;
    std::pair<AxisSpan, AxisSpan> m_spans; ///< those of the axes shown
    TargetMarker* m_marker = nullptr;
};

/// Axis titles of a view: "Interactivity (tok/s/user)", "Time to first token, median (s)", "tok/s/GPU (total
/// tokens)" and so on.
QString xAxisTitle(const ChartRequest& request);
/// The x axis in a few words for a caption: "interactivity", "median TTFT" ...
QString xAxisName(const ChartRequest& request);
QString yAxisTitle(const ChartRequest& request, TputMetric metric);

} // namespace paretoscope::ui
