#include "core/analysis/scopetimeline.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/analysis/energy.h"
#include "core/analysis/frontier.h"

namespace paretoscope {
namespace {

bool counts(const RunPoint& p, const Scope& scope)
{
    return p.interactivity > 0 && p.tputPerGpu > 0 && (!p.marked || scope.includeMarked);
}

// The low and high frontiers of the runs the spread is taken from: each configuration's lowest- and highest-
// throughput run, each at its own interactivity. Set only when some configuration has two or more such runs.
void attachSpread(GroupFrontier& g, const std::vector<TimedRun>& runs, const std::vector<RunVersion>& versions,
    const Scope& scope, int asOf)
{
    struct Extremes {
        const RunPoint* low = nullptr;
        const RunPoint* high = nullptr;
        int n = 0;
    };
    std::unordered_map<std::uint64_t, Extremes> byConfig;
    bool several = false;
    for (std::size_t i : spreadRuns(versions, scope.runs, asOf)) {
        const RunPoint& p = runs[i].point;
        if (!counts(p, scope))
            continue;
        // a configuration is a line at one concurrency
        Extremes& e = byConfig[versions[i].line
            ^ (static_cast<std::uint64_t>(versions[i].concurrency) * 0x9e3779b97f4a7c15ULL)];
        if (!e.low || p.tputPerGpu < e.low->tputPerGpu)
            e.low = &p;
        if (!e.high || p.tputPerGpu > e.high->tputPerGpu)
            e.high = &p;
        several = several || ++e.n > 1;
    }
    if (!several)
        return;
    std::vector<Point> lows, highs;
    for (const auto& [config, e] : byConfig) {
        lows.push_back(Point { e.low->interactivity, e.low->tputPerGpu, e.low->runId });
        highs.push_back(Point { e.high->interactivity, e.high->tputPerGpu, e.high->runId });
    }
    g.low = MonotoneCurve(upperLeftFrontier(std::move(lows)));
    g.high = MonotoneCurve(upperLeftFrontier(std::move(highs)));
}

// Each configuration's own curve: the frontier of its points alone, with each knot's concurrency.
std::vector<ConfigLine> configLines(
    const std::map<std::uint64_t, std::vector<std::size_t>>& lines, const std::vector<TimedRun>& runs)
{
    std::vector<ConfigLine> out;
    out.reserve(lines.size());
    for (const auto& [line, members] : lines) {
        std::vector<Point> points;
        std::unordered_map<long long, int> concurrency;
        points.reserve(members.size());
        for (std::size_t i : members) {
            const RunPoint& p = runs[i].point;
            points.push_back(Point { p.interactivity, p.tputPerGpu, p.runId, p.marked });
            concurrency[p.runId] = runs[i].version.concurrency;
        }
        ConfigLine c;
        c.knots = upperLeftFrontier(std::move(points));
        for (const Point& k : c.knots)
            c.concurrencies.push_back(concurrency[k.runId]);
        c.curve = MonotoneCurve(c.knots);
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace

std::optional<GroupFrontier> selectedGroupFrontier(
    GroupKey key, const std::vector<TimedRun>& runs, const Scope& scope, int asOf, std::vector<RunPoint>* selected)
{
    std::vector<RunVersion> versions;
    versions.reserve(runs.size());
    for (const TimedRun& r : runs)
        versions.push_back(r.version);
    std::vector<Point> candidates;
    std::vector<RunPoint> powered; // the selected runs that carry an average power, for the measured frontier
    std::map<std::uint64_t, std::vector<std::size_t>> lines; // ordered: the same lines in the same order every time
    for (std::size_t i : selectRuns(versions, scope.runs, asOf)) {
        const RunPoint& p = runs[i].point;
        if (selected)
            selected->push_back(p);
        if (counts(p, scope)) {
            candidates.push_back(Point { p.interactivity, p.tputPerGpu, p.runId, p.marked });
            lines[versions[i].line].push_back(i);
            if (p.avgPowerW > 0)
                powered.push_back(p);
        }
    }
    auto g = makeGroupFrontier(std::move(key), std::move(candidates));
    if (g) {
        g->lines = configLines(lines, runs);
        attachSpread(*g, runs, versions, scope, asOf);
        g->measured = measuredFrontier(powered, scope.includeMarked);
        if (scope.runs == RunSelection::Latest)
            for (const NarrowedCurve& n : narrowedCurves(versions, asOf))
                g->narrowed.push_back(
                    { versions[n.newest].day, versions[n.replaced].day, n.newestPoints, n.replacedPoints });
    }
    return g;
}

ScopeTimeline ScopeTimeline::load(RunStore& store, const Scope& scope, TputMetric metric)
{
    ScopeTimeline t;
    t.m_scope = scope;
    const int bound = asOfDay(scope.asOf);
    t.m_series = store.series(scope);
    for (auto& [key, ids] : seriesByGroup(t.m_series)) {
        Group g { key, store.timedRuns(ids, metric, scope), {} };
        for (const TimedRun& r : g.runs)
            if (r.version.day <= bound)
                g.days.push_back(r.version.day);
        std::sort(g.days.begin(), g.days.end());
        g.days.erase(std::unique(g.days.begin(), g.days.end()), g.days.end());
        t.m_days.insert(t.m_days.end(), g.days.begin(), g.days.end());
        t.m_groups.push_back(std::move(g));
    }
    std::sort(t.m_days.begin(), t.m_days.end());
    t.m_days.erase(std::unique(t.m_days.begin(), t.m_days.end()), t.m_days.end());
    return t;
}

bool ScopeTimeline::changesOn(const Group& g, int day) const
{
    return std::binary_search(g.days.begin(), g.days.end(), day);
}

std::vector<GroupFrontier> ScopeTimeline::frontiersAsOf(int day) const
{
    std::vector<GroupFrontier> out;
    for (const Group& g : m_groups)
        if (auto f = selectedGroupFrontier(g.key, g.runs, m_scope, day))
            out.push_back(std::move(*f));
    return out;
}

void ScopeTimeline::asOf(int day, std::vector<GroupFrontier>& frontiers, std::vector<GroupRuns>& runs) const
{
    for (const Group& g : m_groups) {
        GroupRuns selected { g.key, {} };
        if (auto f = selectedGroupFrontier(g.key, g.runs, m_scope, day, &selected.points)) {
            frontiers.push_back(std::move(*f));
            runs.push_back(std::move(selected));
        }
    }
}

std::vector<std::string> ScopeTimeline::hardware() const
{
    std::vector<std::string> out;
    out.reserve(m_groups.size());
    for (const Group& g : m_groups)
        out.push_back(g.key.hardware);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::size_t ScopeTimeline::runCount() const
{
    std::size_t n = 0;
    for (const Group& g : m_groups)
        n += g.runs.size();
    return n;
}

} // namespace paretoscope
