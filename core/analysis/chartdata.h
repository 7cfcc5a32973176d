#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/analysis/energymetric.h"
#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/scopeaccuracy.h"
#include "core/analysis/scopetimeline.h"
#include "core/analysis/speedoflight.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// The speed-of-light bound of one hardware at one precision, for the scope's model and lengths.
struct SolLine {
    std::string hardware;
    std::string precision;
    SolCurve curve;
};

/// The speed-of-light bounds of a scope: one per (hardware, precision) among its frontiers where the model's
/// architecture and the device's specification are known and the workload has fixed lengths; `missing` says why a
/// hardware has none.
std::vector<SolLine> scopeSpeedOfLight(const Scope& scope, const std::vector<GroupKey>& groups, TputMetric metric,
    std::vector<std::string>* missing = nullptr);
/// Fills each reading's share of the speed of light of its hardware at its precision (where there is one).
void attachSpeedOfLight(std::vector<HardwareLadder>& ladders, const std::vector<SolLine>& lines);

/// What the explorer loads for one scope and token metric (off the GUI thread): the frontiers the readout and ladder
/// read, and every run for the chart. Views (axes, pricing, zoom) are computed from it without the store.
struct ScopeData {
    Scope scope;
    TputMetric metric = TputMetric::Total;
    std::vector<GroupFrontier> frontiers; ///< interactivity frontiers, ordered by group key
    std::vector<GroupRuns> runs; ///< same groups, same order, every run (also those off the frontier)
    std::vector<Series> series; ///< the scope's series, filters applied (for the runs table, exports, the summary)
    std::vector<SolLine> speedOfLight; ///< the bounds the chart draws dashed and the readout compares with
    std::vector<std::string> speedOfLightMissing; ///< why a hardware has no bound ("no architecture for M")
    std::size_t runCount = 0;
    /// The model's evaluations (docs/evaluations.md), read with the scope; null or empty without any. Its answers
    /// are kept as they are asked: read on one thread at a time (the window's).
    std::shared_ptr<const EvaluationIndex> evaluations;
    /// The accuracy requirement applied (requireAccuracy): the groups that failed it are not in frontiers, runs and
    /// series; each group's verdict. Unset: no requirement.
    std::optional<AccuracyFilter> accuracyFilter;
    /// The task whose accuracy every view of this scope shows (chooseAccuracyTask): the one asked, else the
    /// requirement's, else GSM8K, else the first evaluated; empty without evaluations.
    std::string accuracyTask;
    /// The configuration of each frontier knot (knotConfigurations), read with the scope where the model has
    /// evaluations: a reading's accuracy is read on the evaluated configuration closest to the one it comes from.
    std::shared_ptr<const KnotConfigurations> knotConfigurations;
    /// Ids of the series, for RunStore queries.
    std::vector<long long> seriesIds() const;
    /// Ids of the runs the scope selects (every group's runs), ascending.
    std::vector<long long> selectedRunIds() const;
};

/// Loads a scope: the same frontiers FrontierCache computes, plus every run's chart point.
ScopeData loadScopeData(RunStore& store, const Scope& scope, TputMetric metric);
/// The same scope data from its runs in memory: `scope` as of its as-of date, from a timeline loaded for that scope
/// with no as-of date (so that it holds every day), and the scope's series. The explorer's replay of run dates.
ScopeData scopeDataAsOf(
    const ScopeTimeline& timeline, const Scope& scope, std::vector<Series> series, TputMetric metric);

/// The chart's x: interactivity (tok/s/user, higher is better), or a latency (s, lower is better): median
/// end-to-end latency, median TTFT, p99 TTFT.
enum class ChartX { Interactivity, Latency, TtftMedian, TtftP99 };
/// "interactivity", "e2el", "ttft", "ttft-p99"
std::string_view chartXName(ChartX x);
std::optional<ChartX> parseChartX(std::string_view name);
/// A run's x on a latency axis (seconds, 0 unknown); its interactivity on the interactivity axis.
double runX(const RunPoint& run, ChartX x);
/// Each group's frontier on a latency x: the Pareto set of (1 / latency, tok/s/GPU) of its selected runs that count,
/// with each point's x the latency (s), latency ascending. Groups without
/// such a run are left out. On the interactivity axis, the frontiers themselves.
std::vector<GroupFrontier> xFrontiers(const ScopeData& data, ChartX x);
/// The chart's y: tok/s/GPU of the metric (higher is better), $ per million tokens (lower is better), or an energy
/// metric (energymetric.h): tok/s per all-in provisioned MW (higher), all-in provisioned J/token (lower), measured
/// J/token, GPU only (lower; only runs that carry an average power).
enum class ChartY { Throughput, Cost, TokensPerMegawatt, JoulesPerToken, MeasuredJoulesPerToken };
/// The energy metric of a y; None for throughput and cost.
EnergyMetric chartEnergy(ChartY y);
/// Whether a lower y is better (cost, J/token): the frontier drawn is then the lower one.
bool lowerIsBetter(ChartY y);

struct ChartRequest {
    ChartX x = ChartX::Interactivity;
    ChartY y = ChartY::Throughput;
    PriceChoice price; ///< for ChartY::Cost
    bool logX = true;
    bool logY = false;
    int pixelsWide = 1600; ///< the plot area: run points are thinned to one per 2 x 2 pixels of it
    int pixelsHigh = 1000;
    bool operator==(const ChartRequest&) const = default;
};

/// One group's line in chart coordinates.
struct ChartSeries {
    GroupKey key;
    std::vector<Point> frontier; ///< its knots, x increasing; empty when the group cannot be drawn in this view
    /// The frontier as drawn: on the interactivity axis, the monotone curve its readings come from, sampled between
    /// the knots (up to 24 points a segment, evenly in log x on a log axis), so that every reading the readout
    /// shows lies on the line; on a latency x, the knots.
    std::vector<Point> path;
    std::vector<Point> runs; ///< its runs, thinned to what the pixel grid can show
    /// false in the cost view when the tier has no price for the hardware, in an all-in energy view when the power
    /// registry has no figure for it, and in the measured energy view when none of its runs carries power
    bool priced = true;
    /// The spread of reruns on the interactivity axis: the low and high frontiers (x increasing), sampled as path is,
    /// both empty when the group has none.
    std::vector<Point> low, high;
    bool operator==(const ChartSeries&) const = default;
};

/// A speed-of-light bound in chart coordinates (interactivity against tok/s/GPU only).
struct ChartSol {
    std::string hardware;
    std::string precision;
    std::vector<Point> points; ///< x increasing
    bool operator==(const ChartSol&) const = default;
};

struct ChartData {
    std::vector<ChartSeries> series;
    std::vector<ChartSol> speedOfLight;
    std::size_t runsInScope = 0;
    std::size_t runsDrawn = 0;
    double xMin = 0, xMax = 0, yMin = 0, yMax = 0; ///< bounds of everything drawn (0 when empty)
    /// Whether both draw the same picture: a chart built from one shows the other.
    bool operator==(const ChartData&) const = default;
};

/// The chart of a loaded scope. With a latency on x, the frontier is the Pareto set of (lower latency, higher y);
/// with cost on y, each tok/s/GPU becomes $ per million tokens at its hardware's price, so the frontier is the lower
/// one; an all-in energy y converts each tok/s/GPU with the hardware's kW the same way (one factor per hardware, so
/// the throughput frontier maps to the energy frontier); measured J/token is per run, and its frontier is the group's
/// measured frontier (GroupFrontier::measured). A reading at a target is what the readout shows: see chartReading.
ChartData chartData(const ScopeData& data, const PricingCatalog& pricing, const ChartRequest& request);

/// The y a group's frontier has at an interactivity target in the request's y units; empty when the group's
/// frontier does not cover the target or has no price.
std::optional<double> chartReading(
    const GroupFrontier& group, double target, const PricingCatalog& pricing, const ChartRequest& request);

/// A tok/s/GPU of a group (a deployable reading of one of its configurations) in the request's y units, as
/// chartReading converts its frontier's; empty in the measured energy view (it has no tok/s/GPU to convert) and where
/// the group has no price or power figure.
std::optional<double> chartValue(
    double tputPerGpu, const GroupFrontier& group, const PricingCatalog& pricing, const ChartRequest& request);

/// The part of a polyline inside a box, cut where it crosses the box's edges. A segment is straight in the space the
/// chart draws in (log space on a log axis), so it is cut there. Pieces outside are dropped and the pieces inside
/// joined in order (for the monotone lines the chart draws there is one piece). Drawn with it, a line stays inside
/// the plot even where the renderer does not clip (SVG). A point whose x is not a number breaks the line: the result
/// holds one such point there.
std::vector<Point> clipPolyline(
    const std::vector<Point>& line, double xMin, double xMax, double yMin, double yMax, bool logX, bool logY);

/// Keeps one point per cell of a cols x rows grid over the given bounds (log-spaced on a log axis), in input order.
std::vector<Point> thinToGrid(const std::vector<Point>& points, double xMin, double xMax, double yMin, double yMax,
    bool logX, bool logY, int cols, int rows);

} // namespace paretoscope
