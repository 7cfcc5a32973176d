#include "core/analysis/scopeaccuracy.h"

#include <algorithm>
#include <set>

#include "core/analysis/chartdata.h"
#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/plan.h"

namespace paretoscope {

namespace {

// failingGroups' answer as a set, to look the groups up in
std::set<GroupKey> failing(const std::vector<AccuracyVerdict>& verdicts)
{
    const std::vector<GroupKey> groups = failingGroups(verdicts);
    return { groups.begin(), groups.end() };
}

template <typename T, typename Key> void eraseKeys(std::vector<T>& items, const std::set<GroupKey>& gone, Key key)
{
    std::erase_if(items, [&](const T& item) { return gone.contains(key(item)); });
}

} // namespace

std::size_t AccuracyFilter::below() const
{
    return static_cast<std::size_t>(
        std::count_if(verdicts.begin(), verdicts.end(), [](const auto& v) { return !v.passes && v.accuracy; }));
}

std::size_t AccuracyFilter::unevaluated() const
{
    return static_cast<std::size_t>(
        std::count_if(verdicts.begin(), verdicts.end(), [](const auto& v) { return !v.passes && !v.accuracy; }));
}

std::string AccuracyFilter::words() const
{
    const std::string rule = accuracyRequirementWords(requirement);
    const std::size_t out = below() + unevaluated();
    if (out == 0)
        return verdicts.empty() ? "no group to judge by " + rule : "every group meets " + rule;
    std::string s
        = std::to_string(out) + " of " + std::to_string(verdicts.size()) + " groups left out by " + rule + ": ";
    if (below() > 0)
        s += std::to_string(below()) + " below it";
    if (below() > 0 && unevaluated() > 0)
        s += ", ";
    if (unevaluated() > 0)
        s += std::to_string(unevaluated()) + " not evaluated";
    return s;
}

void removeFailingGroups(std::vector<GroupFrontier>& frontiers, const std::vector<AccuracyVerdict>& verdicts)
{
    eraseKeys(frontiers, failing(verdicts), [](const GroupFrontier& g) { return g.key; });
}

void requireAccuracy(ScopeData& data, const AccuracyRequirement& requirement)
{
    // the groups with runs in scope (every group with a frontier has runs); without evaluations none is evaluated
    std::set<GroupKey> groups;
    for (const GroupRuns& r : data.runs)
        groups.insert(r.key);
    for (const GroupFrontier& g : data.frontiers)
        groups.insert(g.key);
    const EvaluationIndex none;
    const EvaluationIndex& index = data.evaluations ? *data.evaluations : none;
    AccuracyFilter filter;
    filter.requirement = requirement;
    filter.verdicts = judgeAccuracy(index, { groups.begin(), groups.end() }, requirement, data.scope.asOf);
    const std::set<GroupKey> gone = failing(filter.verdicts);
    filter.before = data.frontiers;
    eraseKeys(data.frontiers, gone, [](const GroupFrontier& g) { return g.key; });
    eraseKeys(data.runs, gone, [](const GroupRuns& g) { return g.key; });
    eraseKeys(data.series, gone, [](const Series& s) { return s.key; });
    data.runCount = 0;
    for (const GroupRuns& r : data.runs)
        data.runCount += r.points.size();
    // the bounds drawn are those of the hardware and precisions left
    std::vector<GroupKey> left;
    left.reserve(data.frontiers.size());
    for (const GroupFrontier& g : data.frontiers)
        left.push_back(g.key);
    data.speedOfLightMissing.clear();
    data.speedOfLight = scopeSpeedOfLight(data.scope, left, data.metric, &data.speedOfLightMissing);
    data.accuracyFilter = std::move(filter);
}

void chooseAccuracyTask(ScopeData& data, const std::string& asked)
{
    LadderRequest request;
    request.accuracyTask = asked;
    if (data.accuracyFilter)
        request.accuracy = data.accuracyFilter->requirement;
    const EvaluationIndex none;
    data.accuracyTask = ladderAccuracyTask(request, data.evaluations ? *data.evaluations : none);
}

AccuracyFilter requireAccuracy(
    PlanFrontiers& data, const EvaluationIndex& evaluations, const AccuracyRequirement& requirement)
{
    std::set<GroupKey> groups;
    for (const auto* frontiers : { &data.total, &data.output })
        for (const GroupFrontier& g : *frontiers)
            groups.insert(g.key);
    for (const auto* curves : { &data.totalConfigs, &data.outputConfigs })
        for (const ConfigCurve& c : *curves)
            groups.insert(c.group);
    AccuracyFilter filter;
    filter.requirement = requirement;
    filter.verdicts = judgeAccuracy(evaluations, { groups.begin(), groups.end() }, requirement, data.scope.asOf);
    const std::set<GroupKey> gone = failing(filter.verdicts);
    std::set<std::string> kept, lost;
    for (const AccuracyVerdict& v : filter.verdicts)
        (v.passes ? kept : lost).insert(v.group.hardware);
    for (auto* frontiers : { &data.total, &data.output })
        eraseKeys(*frontiers, gone, [](const GroupFrontier& g) { return g.key; });
    for (auto* curves : { &data.totalConfigs, &data.outputConfigs })
        eraseKeys(*curves, gone, [](const ConfigCurve& c) { return c.group; });
    data.accuracyExcluded.clear();
    for (const std::string& hw : lost)
        if (!kept.contains(hw))
            data.accuracyExcluded.push_back(hw); // sorted: from a set
    return filter;
}

void attachAccuracy(Plan& plan, const EvaluationIndex& evaluations, const std::string& task, const std::string& asOf)
{
    for (HardwarePlan& h : plan.hardware) {
        h.accuracyTask = task;
        h.accuracy.reset();
        if (!h.read() || !h.group)
            continue;
        std::optional<ConfigurationHint> hint;
        if (h.sizing)
            hint = ConfigurationHint { h.sizing->disaggregated, h.sizing->tp, h.sizing->ep, h.sizing->dpAttention };
        h.accuracy = groupAccuracy(evaluations, *h.group, task, asOf, hint);
    }
}

} // namespace paretoscope
