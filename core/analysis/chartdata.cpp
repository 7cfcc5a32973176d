#include "core/analysis/chartdata.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/analysis/energy.h"
#include "core/analysis/frontier.h"
#include "core/analysis/scopetimeline.h"

namespace paretoscope {

ScopeData loadScopeData(RunStore& store, const Scope& scope, TputMetric metric)
{
    ScopeData d;
    d.scope = scope;
    d.metric = metric;
    d.series = store.series(scope);
    for (auto& [key, ids] : seriesByGroup(d.series)) {
        GroupRuns runs { key, {} };
        auto g
            = selectedGroupFrontier(key, store.timedRuns(ids, metric, scope), scope, asOfDay(scope.asOf), &runs.points);
        if (!g)
            continue;
        d.runCount += runs.points.size();
        d.frontiers.push_back(std::move(*g));
        d.runs.push_back(std::move(runs));
    }
    std::vector<GroupKey> groups;
    groups.reserve(d.frontiers.size());
    for (const GroupFrontier& g : d.frontiers)
        groups.push_back(g.key);
    d.speedOfLight = scopeSpeedOfLight(scope, groups, metric, &d.speedOfLightMissing);
    return d;
}

ScopeData scopeDataAsOf(
    const ScopeTimeline& timeline, const Scope& scope, std::vector<Series> series, TputMetric metric)
{
    ScopeData d;
    d.scope = scope;
    d.metric = metric;
    d.series = std::move(series);
    timeline.asOf(asOfDay(scope.asOf), d.frontiers, d.runs);
    std::vector<GroupKey> groups;
    groups.reserve(d.frontiers.size());
    for (const GroupFrontier& g : d.frontiers)
        groups.push_back(g.key);
    for (const GroupRuns& r : d.runs)
        d.runCount += r.points.size();
    d.speedOfLight = scopeSpeedOfLight(scope, groups, metric, &d.speedOfLightMissing);
    return d;
}

void attachSpeedOfLight(std::vector<HardwareLadder>& ladders, const std::vector<SolLine>& lines)
{
    for (HardwareLadder& l : ladders)
        for (LadderRow& r : l.rows) {
            const auto v = r.value(); // the reading chosen (LadderRequest::reading)
            const auto g = r.group();
            if (!v || !g)
                continue;
            for (const SolLine& s : lines)
                if (s.hardware == l.hardware && s.precision == g->precision)
                    if (auto bound = speedOfLightAt(s.curve, r.entry.target); bound && *bound > 0)
                        r.speedOfLightPct = 100.0 * *v / *bound;
        }
}

std::vector<SolLine> scopeSpeedOfLight(
    const Scope& scope, const std::vector<GroupKey>& groups, TputMetric metric, std::vector<std::string>* missing)
{
    std::vector<SolLine> out;
    auto note = [&](const std::string& s) {
        if (missing && std::find(missing->begin(), missing->end(), s) == missing->end())
            missing->push_back(s);
    };
    if (scope.isl.value_or(0) <= 0 || scope.osl.value_or(0) <= 0) {
        note("the workload has no fixed lengths");
        return out;
    }
    auto arch = findModelArch(scope.model);
    if (!arch) {
        note("no architecture for " + scope.model + " in resources/model_architectures.json");
        return out;
    }
    for (const GroupKey& key : groups) {
        bool seen = false;
        for (const SolLine& l : out)
            seen = seen || (l.hardware == key.hardware && l.precision == key.precision);
        if (seen)
            continue;
        auto device = findDeviceSpec(key.hardware);
        if (!device) {
            note("no specification for " + key.hardware + " in resources/device_specs.json");
            continue;
        }
        SolRequest r;
        r.model = *arch;
        r.device = *device;
        r.precision = key.precision;
        r.isl = *scope.isl;
        r.osl = *scope.osl;
        r.metric = metric;
        auto curve = speedOfLight(r);
        if (!curve) {
            note(curve.error());
            continue;
        }
        out.push_back({ key.hardware, key.precision, std::move(*curve) });
    }
    return out;
}

std::string_view chartXName(ChartX x)
{
    switch (x) {
    case ChartX::Interactivity:
        return "interactivity";
    case ChartX::Latency:
        return "e2el";
    case ChartX::TtftMedian:
        return "ttft";
    case ChartX::TtftP99:
        return "ttft-p99";
    }
    return "interactivity";
}

std::optional<ChartX> parseChartX(std::string_view name)
{
    for (ChartX x : { ChartX::Interactivity, ChartX::Latency, ChartX::TtftMedian, ChartX::TtftP99 })
        if (name == chartXName(x))
            return x;
    return std::nullopt;
}

double runX(const RunPoint& run, ChartX x)
{
    switch (x) {
    case ChartX::Interactivity:
        return run.interactivity;
    case ChartX::Latency:
        return run.e2elSeconds;
    case ChartX::TtftMedian:
        return run.ttftSeconds;
    case ChartX::TtftP99:
        return run.ttftP99Seconds;
    }
    return 0;
}

std::vector<long long> ScopeData::selectedRunIds() const
{
    std::vector<long long> ids;
    for (const GroupRuns& g : runs)
        for (const RunPoint& p : g.points)
            ids.push_back(p.runId);
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<long long> ScopeData::seriesIds() const
{
    std::vector<long long> ids;
    ids.reserve(series.size());
    for (const Series& s : series)
        ids.push_back(s.id);
    return ids;
}

namespace {

bool usable(double v)
{
    return std::isfinite(v) && v > 0;
}

// y in the request's units from tok/s/GPU and the group's factor: tok/s/GPU; $/1M tokens at the price (factor:
// $/GPU/hr); an all-in energy metric (factor: all-in kW per GPU); empty without a factor. The measured view is given
// tokens per joule (factor 1) and shows J/token.
std::optional<double> toChartY(double tput, double factor, ChartY y)
{
    if (y == ChartY::Throughput)
        return tput;
    if (!(factor > 0) || !(tput > 0))
        return std::nullopt;
    switch (y) {
    case ChartY::Cost:
        return costPerMillionTokens(factor, tput);
    case ChartY::TokensPerMegawatt:
        return tokensPerSecondPerAllInMegawatt(factor, tput);
    case ChartY::JoulesPerToken:
        return allInJoulesPerToken(factor, tput);
    case ChartY::MeasuredJoulesPerToken:
        return 1.0 / tput;
    case ChartY::Throughput:
        break;
    }
    return tput;
}

// The factor toChartY converts a group's tok/s/GPU with: its price, its all-in kW, 1 for the measured view (which
// converts runs, not a factor); 0 when there is none.
double groupFactor(const GroupFrontier& g, const PricingCatalog& pricing, const ChartRequest& request)
{
    if (request.y == ChartY::Cost) {
        const auto price = priceFor(pricing, request.price, g.key.hardware);
        return price && *price ? **price : 0.0;
    }
    if (request.y == ChartY::TokensPerMegawatt || request.y == ChartY::JoulesPerToken) {
        const HardwarePower* hw = bundledHardwarePower().find(g.key.hardware);
        return hw ? hw->allInKw : 0.0;
    }
    if (request.y == ChartY::MeasuredJoulesPerToken)
        return g.measured.empty() ? 0.0 : 1.0;
    return 1.0;
}

} // namespace

EnergyMetric chartEnergy(ChartY y)
{
    switch (y) {
    case ChartY::TokensPerMegawatt:
        return EnergyMetric::TokensPerMegawatt;
    case ChartY::JoulesPerToken:
        return EnergyMetric::JoulesPerToken;
    case ChartY::MeasuredJoulesPerToken:
        return EnergyMetric::MeasuredJoulesPerToken;
    default:
        return EnergyMetric::None;
    }
}

bool lowerIsBetter(ChartY y)
{
    return y == ChartY::Cost || y == ChartY::JoulesPerToken || y == ChartY::MeasuredJoulesPerToken;
}

std::optional<double> chartReading(
    const GroupFrontier& group, double target, const PricingCatalog& pricing, const ChartRequest& request)
{
    if (request.y == ChartY::MeasuredJoulesPerToken)
        return measuredJoulesAt(group, target);
    auto v = group.curve.at(target);
    if (!v)
        return std::nullopt;
    return toChartY(*v, groupFactor(group, pricing, request), request.y);
}

std::optional<double> chartValue(
    double tputPerGpu, const GroupFrontier& group, const PricingCatalog& pricing, const ChartRequest& request)
{
    if (request.y == ChartY::MeasuredJoulesPerToken)
        return std::nullopt;
    return toChartY(tputPerGpu, groupFactor(group, pricing, request), request.y);
}

std::vector<Point> thinToGrid(const std::vector<Point>& points, double xMin, double xMax, double yMin, double yMax,
    bool logX, bool logY, int cols, int rows)
{
    if (points.size() <= static_cast<std::size_t>(std::max(cols, 1)) || cols <= 0 || rows <= 0)
        return points;
    auto axis = [](double v, double lo, double hi, bool log, int cells) {
        double t = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
        if (!std::isfinite(t))
            t = 0;
        return std::clamp(static_cast<int>(t * cells), 0, cells - 1);
    };
    std::vector<bool> taken(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows));
    std::vector<Point> out;
    for (const Point& p : points) {
        std::size_t cell = static_cast<std::size_t>(axis(p.y, yMin, yMax, logY, rows)) * static_cast<std::size_t>(cols)
            + static_cast<std::size_t>(axis(p.x, xMin, xMax, logX, cols));
        if (!taken[cell]) {
            taken[cell] = true;
            out.push_back(p);
        }
    }
    return out;
}

namespace {

// The bounds of everything drawn.
struct Bounds {
    double xMin = std::numeric_limits<double>::infinity(), yMin = xMin;
    double xMax = 0, yMax = 0;
    void grow(const Point& p)
    {
        xMin = std::min(xMin, p.x);
        xMax = std::max(xMax, p.x);
        yMin = std::min(yMin, p.y);
        yMax = std::max(yMax, p.y);
    }
};

// A run's y before toChartY: tok/s/GPU, or in the measured energy view tokens per joule (0 without power).
double runY(const RunPoint& r, bool perJoule)
{
    if (!perJoule)
        return r.tputPerGpu;
    return r.avgPowerW > 0 ? r.tputPerGpu / r.avgPowerW : 0.0;
}

// The Pareto set of (1 / latency, tok/s/GPU, or tokens per joule) of runs, each point's x the latency, latency
// ascending.
std::vector<Point> latencyFrontier(
    const std::vector<RunPoint>& runs, ChartX x, bool includeMarked, bool perJoule = false)
{
    std::vector<Point> inverted;
    for (const RunPoint& r : runs)
        if (const double v = runX(r, x); usable(v) && usable(runY(r, perJoule)) && (!r.marked || includeMarked))
            inverted.push_back(Point { 1.0 / v, runY(r, perJoule), r.runId });
    std::vector<Point> f = upperLeftFrontier(std::move(inverted));
    for (Point& p : f)
        p.x = 1.0 / p.x;
    std::reverse(f.begin(), f.end());
    return f;
}

// Steps a segment of a drawn frontier is cut into: at most kCurveSteps, and about kCurvePoints along the whole curve
// (a point every 7 px across a 1600 px plot; the curve bends little between close knots, which need fewer)
constexpr int kCurveSteps = 24;
constexpr int kCurvePoints = 240;

// A curve as drawn: its knots, and between each two the monotone cubic its readings come from, sampled evenly in x as
// the axis spaces it (log or linear), each point placed as a knot is. Straight segments between the knots stood off
// the readings: at DeepSeek-R1 1k/8k, a knot at 23 and one at 243 tok/s/user, the line crossed 50 at about a third of
// the reading, with log axes.
template <typename Place> std::vector<Point> curvePath(const MonotoneCurve& curve, bool logX, const Place& place)
{
    std::vector<Point> path;
    const std::vector<Point>& knots = curve.knots();
    const int steps = knots.size() < 2 ? 1 : std::clamp(kCurvePoints / int(knots.size() - 1), 1, kCurveSteps);
    for (std::size_t k = 0; k < knots.size(); ++k) {
        if (k > 0) {
            const double a = knots[k - 1].x, b = knots[k].x;
            for (int j = 1; j < steps; ++j) {
                const double t = double(j) / steps;
                const double x = logX ? a * std::pow(b / a, t) : a + (b - a) * t;
                if (const auto y = curve.at(x))
                    if (auto p = place(x, *y, 0))
                        path.push_back(*p);
            }
        }
        if (auto p = place(knots[k].x, knots[k].y, 0))
            path.push_back(*p);
    }
    return path;
}

// One group in the request's coordinates: its runs, and its frontier (with latency on x, the Pareto set of lower
// latency and higher y, from the runs).
ChartSeries placeGroup(const ScopeData& data, std::size_t i, double factor, const ChartRequest& request)
{
    const GroupFrontier& g = data.frontiers[i];
    const bool perJoule = request.y == ChartY::MeasuredJoulesPerToken;
    ChartSeries s;
    s.key = g.key;
    s.priced = request.y == ChartY::Throughput || factor > 0;
    if (!s.priced)
        return s;
    auto place = [&](double interactivity, double tput, double latency) -> std::optional<Point> {
        double x = request.x == ChartX::Interactivity ? interactivity : latency;
        auto y = toChartY(tput, factor, request.y);
        if (!usable(x) || !y || !usable(*y))
            return std::nullopt;
        return Point { x, *y, 0 };
    };
    for (const RunPoint& r : data.runs[i].points) {
        if (auto p = place(r.interactivity, runY(r, perJoule), runX(r, request.x))) {
            p->runId = r.runId;
            p->marked = r.marked;
            s.runs.push_back(*p);
        }
    }
    if (request.x == ChartX::Interactivity) {
        for (const Point& k : perJoule ? g.measured.knots() : g.points)
            if (auto p = place(k.x, k.y, 0)) {
                p->runId = k.runId;
                s.frontier.push_back(*p);
            }
        s.path = curvePath(perJoule ? g.measured : g.curve, request.logX, place);
        // the spread of reruns (docs/architecture.md section 10.3): low and high frontiers, a band under the line
        if (g.hasSpread() && !perJoule) {
            s.low = curvePath(g.low, request.logX, place);
            s.high = curvePath(g.high, request.logX, place);
        }
        return s;
    }
    // lower latency is better: the frontier of (1 / latency, tok/s/GPU), drawn back at the latency
    for (const Point& k : latencyFrontier(data.runs[i].points, request.x, data.scope.includeMarked, perJoule))
        if (auto p = place(0, k.y, k.x)) {
            p->runId = k.runId;
            s.frontier.push_back(*p);
        }
    s.path = s.frontier;
    return s;
}

// The bounds, drawn where x is interactivity and y throughput. Below a curve's lowest interactivity the bound is
// flat (memory or the matrix rate caps the batch), so the line is carried left to the data. On a log y they widen the
// axes over the data's own interactivity; a linear y stays fitted to the measured runs, which would otherwise be
// pressed to the bottom (the chart says when a bound is above the view)
std::vector<ChartSol> placeSpeedOfLight(const ScopeData& data, const ChartRequest& request, Bounds& bounds)
{
    std::vector<ChartSol> out;
    if (request.x != ChartX::Interactivity || request.y != ChartY::Throughput || bounds.xMax <= 0)
        return out;
    const double lo = bounds.xMin, hi = bounds.xMax;
    auto growY = [&](double x, double y) {
        if (request.logY && x >= lo && x <= hi)
            bounds.grow({ x, y, 0 });
    };
    for (const SolLine& l : data.speedOfLight) {
        ChartSol c { l.hardware, l.precision, {} };
        if (!l.curve.points.empty() && l.curve.points.front().interactivity > lo)
            c.points.push_back({ lo, l.curve.points.front().tputPerGpu, 0 });
        for (const SolPoint& p : l.curve.points)
            c.points.push_back({ p.interactivity, p.tputPerGpu, 0 });
        for (const Point& p : c.points)
            growY(p.x, p.y);
        if (auto y = speedOfLightAt(l.curve, hi))
            growY(hi, *y);
        out.push_back(std::move(c));
    }
    return out;
}

// A run point is a few pixels wide: one per 2 x 2 pixel cell shows all there is to see. A grid per series keeps each
// group's own cloud.
void thinRuns(ChartData& out, const ChartRequest& request)
{
    const int cols = std::max(request.pixelsWide / 2, 1), rows = std::max(request.pixelsHigh / 2, 1);
    std::size_t total = 0;
    for (const ChartSeries& s : out.series)
        total += s.runs.size();
    if (total > static_cast<std::size_t>(cols)) {
        for (ChartSeries& s : out.series)
            s.runs = thinToGrid(s.runs, out.xMin, out.xMax, out.yMin, out.yMax, request.logX, request.logY, cols, rows);
    }
    for (const ChartSeries& s : out.series)
        out.runsDrawn += s.runs.size();
}

} // namespace

std::vector<GroupFrontier> xFrontiers(const ScopeData& data, ChartX x)
{
    if (x == ChartX::Interactivity)
        return data.frontiers;
    std::vector<GroupFrontier> out;
    for (const GroupRuns& g : data.runs) {
        GroupFrontier f;
        f.key = g.key;
        f.points = latencyFrontier(g.points, x, data.scope.includeMarked);
        if (!f.points.empty())
            out.push_back(std::move(f));
    }
    return out;
}

ChartData chartData(const ScopeData& data, const PricingCatalog& pricing, const ChartRequest& request)
{
    ChartData out;
    out.runsInScope = data.runCount;
    Bounds bounds;
    for (std::size_t i = 0; i < data.frontiers.size(); ++i) {
        out.series.push_back(placeGroup(data, i, groupFactor(data.frontiers[i], pricing, request), request));
        for (const Point& p : out.series.back().runs)
            bounds.grow(p);
    }
    out.speedOfLight = placeSpeedOfLight(data, request, bounds);
    if (bounds.xMax > 0) {
        out.xMin = bounds.xMin;
        out.xMax = bounds.xMax;
        out.yMin = bounds.yMin;
        out.yMax = bounds.yMax;
    }
    thinRuns(out, request);
    return out;
}

std::vector<Point> clipPolyline(
    const std::vector<Point>& line, double xMin, double xMax, double yMin, double yMax, bool logX, bool logY)
{
    const auto fx = [&](double x) { return logX ? std::log(x) : x; };
    const auto fy = [&](double y) { return logY ? std::log(y) : y; };
    const auto bx = [&](double u) { return logX ? std::exp(u) : u; };
    const auto by = [&](double v) { return logY ? std::exp(v) : v; };
    if ((logX && (xMin <= 0 || xMax <= 0)) || (logY && (yMin <= 0 || yMax <= 0)))
        return {};
    const double x0 = fx(xMin), x1 = fx(xMax), y0 = fy(yMin), y1 = fy(yMax);
    std::vector<Point> out;
    auto add = [&](double u, double v) {
        const Point p { bx(u), by(v), 0 };
        if (out.empty() || out.back().x != p.x || out.back().y != p.y)
            out.push_back(p);
    };
    auto usable = [&](const Point& p) { return (!logX || p.x > 0) && (!logY || p.y > 0); };
    if (line.size() == 1 && usable(line[0])) {
        const double u = fx(line[0].x), v = fy(line[0].y);
        if (u >= x0 && u <= x1 && v >= y0 && v <= y1)
            add(u, v);
        return out;
    }
    for (std::size_t i = 1; i < line.size(); ++i) {
        // a point that is not a number breaks the line (an envelope's stretches): kept as one break
        if (!std::isfinite(line[i - 1].x) || !std::isfinite(line[i].x)) {
            if (!out.empty() && std::isfinite(out.back().x))
                out.push_back(
                    { std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), 0 });
            continue;
        }
        if (!usable(line[i - 1]) || !usable(line[i]))
            continue;
        // Liang-Barsky: the segment's parameter range inside the box
        const double u0 = fx(line[i - 1].x), v0 = fy(line[i - 1].y);
        const double du = fx(line[i].x) - u0, dv = fy(line[i].y) - v0;
        double t0 = 0, t1 = 1;
        bool inside = true;
        for (const auto& [p, q] : { std::pair { -du, u0 - x0 }, std::pair { du, x1 - u0 }, std::pair { -dv, v0 - y0 },
                 std::pair { dv, y1 - v0 } }) {
            if (p == 0) {
                inside = inside && q >= 0;
                continue;
            }
            const double r = q / p;
            if (p < 0)
                t0 = std::max(t0, r);
            else
                t1 = std::min(t1, r);
        }
        if (!inside || t0 > t1)
            continue;
        add(u0 + t0 * du, v0 + t0 * dv);
        add(u0 + t1 * du, v0 + t1 * dv);
    }
    return out;
}

} // namespace paretoscope
