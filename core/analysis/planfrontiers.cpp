// The store side of the capacity plan: a scope's frontiers under its SLO limits, the hardware seen without them,
// and the configuration of every knot, read once so that a plan is recomputed from memory.
#include <algorithm>
#include <map>
#include <set>

#include "core/analysis/frontier.h"
#include "core/analysis/plan.h"
#include "core/analysis/scopetimeline.h"
#include "core/model/runselection.h"
#include "core/store/runstore.h"

namespace paretoscope {
namespace {

// Whether a run meets the scope's SLO limits; a run without the statistic does not (the store's rule, in memory).
bool meetsLimits(const TimedRun& r, const Scope& s)
{
    if (s.ttftMax) {
        const double ttft = s.ttftStat == LatencyStat::P99 ? r.point.ttftP99Seconds : r.point.ttftSeconds;
        if (!(ttft > 0) || ttft > *s.ttftMax)
            return false;
    }
    // median TPOT, else 1 / interactivity (its definition), as the store's sloCondition reads it
    const double tpot = r.tpotSeconds > 0 ? r.tpotSeconds : r.point.interactivity > 0 ? 1 / r.point.interactivity : 0;
    if (s.tpotMax && (!(tpot > 0) || tpot > *s.tpotMax))
        return false;
    return true;
}

// Each configuration's curve in one group: the selected runs (limits aside) by line, each line's frontier with
// whether each of its knots meets the limits.
void appendConfigCurves(
    std::vector<ConfigCurve>& out, const GroupKey& key, const std::vector<TimedRun>& runs, const Scope& scope, int asOf)
{
    std::vector<RunVersion> versions;
    versions.reserve(runs.size());
    for (const TimedRun& r : runs)
        versions.push_back(r.version);
    std::map<std::uint64_t, std::vector<std::size_t>> lines; // ordered: the same curves in the same order every time
    for (std::size_t i : selectRuns(versions, scope.runs, asOf)) {
        const RunPoint& p = runs[i].point;
        if (p.interactivity > 0 && p.tputPerGpu > 0 && (!p.marked || scope.includeMarked))
            lines[runs[i].version.line].push_back(i);
    }
    for (const auto& [line, members] : lines) {
        std::vector<Point> points;
        std::map<long long, std::size_t> byRun;
        for (std::size_t i : members) {
            const RunPoint& p = runs[i].point;
            points.push_back(Point { p.interactivity, p.tputPerGpu, p.runId, p.marked });
            byRun[p.runId] = i;
        }
        ConfigCurve c;
        c.group = key;
        for (const Point& k : upperLeftFrontier(std::move(points))) {
            const TimedRun& r = runs[byRun.at(k.runId)];
            c.knots.push_back(ConfigKnot { k.x, k.y, k.runId, r.version.concurrency, meetsLimits(r, scope),
                r.point.avgPowerW > 0 ? std::optional<double>(r.point.avgPowerW) : std::nullopt });
        }
        if (c.knots.empty())
            continue;
        std::vector<Point> knots;
        knots.reserve(c.knots.size());
        for (const ConfigKnot& k : c.knots)
            knots.push_back(Point { k.x, k.y, k.runId, false });
        c.curve = MonotoneCurve(std::move(knots));
        out.push_back(std::move(c));
    }
}

// The frontiers of one metric under the limits, and each configuration's curve (`configs`); `seen` receives the
// hardware with a frontier without the limits.
std::vector<GroupFrontier> limitedFrontiers(RunStore& store, const std::vector<Series>& series, const Scope& scope,
    TputMetric metric, std::set<std::string>* seen, std::vector<ConfigCurve>& configs)
{
    const int asOf = asOfDay(scope.asOf);
    // read without the limits (the store would leave out what does not meet them), which then apply here: the
    // hardware whose runs never meet them is known, and says so
    Scope unlimited = scope;
    unlimited.ttftMax.reset();
    unlimited.tpotMax.reset();
    std::vector<GroupFrontier> out;
    for (auto& [key, ids] : seriesByGroup(series)) {
        std::vector<TimedRun> runs = store.timedRuns(ids, metric, unlimited);
        appendConfigCurves(configs, key, runs, scope, asOf);
        if (seen && !seen->count(key.hardware)) {
            if (!scope.hasSloLimits() || selectedGroupFrontier(key, runs, scope, asOf))
                seen->insert(key.hardware);
        }
        if (scope.hasSloLimits())
            std::erase_if(runs, [&](const TimedRun& r) { return !meetsLimits(r, scope); });
        if (auto g = selectedGroupFrontier(key, runs, scope, asOf))
            out.push_back(std::move(*g));
    }
    return out;
}

PlanConfig configOf(const StoredRun& run)
{
    const RunRecord& r = run.record;
    PlanConfig c;
    c.runId = run.id;
    c.interactivity = r.interactivity.value_or(0);
    c.tp = r.tp;
    c.ep = r.ep;
    c.dpAttention = r.dpAttention;
    c.disaggregated = r.disaggregated;
    c.prefillGpus = r.prefillGpus;
    c.decodeGpus = r.decodeGpus;
    c.gpus = r.gpus > 0 ? r.gpus : (r.tp > 0 ? r.tp * std::max(r.pp, 1) : 0);
    c.concurrency = r.concurrency;
    c.avgPowerW = r.avgPowerW;
    return c;
}

// Every knot's configuration (of the frontiers and of each configuration's curve), and each hardware's mean measured
// GPU power over its knots' runs.
void attachConfigs(RunStore& store, PlanFrontiers& data)
{
    std::vector<long long> ids;
    for (const auto* list : { &data.total, &data.output })
        for (const GroupFrontier& g : *list)
            for (const Point& p : g.points)
                ids.push_back(p.runId);
    std::sort(ids.begin(), ids.end());
    const std::set<long long> frontierKnots(ids.begin(), ids.end());
    for (const auto* list : { &data.totalConfigs, &data.outputConfigs })
        for (const ConfigCurve& c : *list)
            ids.push_back(c.knots.front().runId);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::map<std::string, std::pair<double, int>> power;
    for (const StoredRun& run : store.runs(ids)) {
        data.configs.emplace(run.id, configOf(run));
        if (run.record.avgPowerW && *run.record.avgPowerW > 0 && frontierKnots.count(run.id)) {
            auto& [sum, n] = power[run.record.hardware];
            sum += *run.record.avgPowerW;
            ++n;
        }
    }
    for (const auto& [hw, sumN] : power)
        data.measuredGpuW[hw] = sumN.first / sumN.second;
    // a curve's configuration is its first knot's run's (every run of a line has the same)
    for (auto* list : { &data.totalConfigs, &data.outputConfigs })
        for (ConfigCurve& c : *list)
            if (auto it = data.configs.find(c.knots.front().runId); it != data.configs.end())
                c.config = it->second;
}

// The (isl, osl) every series in scope shares, when they are fixed lengths.
std::optional<std::pair<int, int>> commonLengths(const std::vector<Series>& series)
{
    std::optional<std::pair<int, int>> out;
    for (const Series& s : series) {
        if (s.isl <= 0 || s.osl <= 0 || (out && *out != std::pair { s.isl, s.osl }))
            return std::nullopt;
        out = std::pair { s.isl, s.osl };
    }
    return out;
}

} // namespace

const std::vector<GroupFrontier>& PlanFrontiers::frontiers(TputMetric m) const
{
    return m == TputMetric::Output ? output : total;
}

const std::vector<ConfigCurve>& PlanFrontiers::configCurves(TputMetric m) const
{
    return m == TputMetric::Output ? outputConfigs : totalConfigs;
}

PlanFrontiers loadPlanFrontiers(RunStore& store, const Scope& given)
{
    // the plan sizes on every GPU of a deployment itself (planHardware): it reads the site's basis and converts
    Scope scope = given;
    scope.basis = TputBasis::Serving;
    PlanFrontiers data;
    data.scope = scope;
    if (scope.matchesNothing)
        return data;
    Scope unlimited = scope;
    unlimited.ttftMax.reset();
    unlimited.tpotMax.reset();
    const std::vector<Series> series = store.series(unlimited);
    std::set<std::string> seen;
    data.total = limitedFrontiers(store, series, scope, TputMetric::Total, &seen, data.totalConfigs);
    data.output = limitedFrontiers(store, series, scope, TputMetric::Output, nullptr, data.outputConfigs);
    data.hardwareWithoutLimits.assign(seen.begin(), seen.end());
    data.lengths = commonLengths(series);
    attachConfigs(store, data);
    return data;
}

} // namespace paretoscope
