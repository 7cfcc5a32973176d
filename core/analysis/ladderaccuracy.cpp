#include "core/analysis/ladderaccuracy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"
#include "core/store/runstore.h"

namespace paretoscope {

std::vector<AccuracyVerdict> applyAccuracyRequirement(
    LadderRequest& request, const std::vector<GroupFrontier>& groups, const EvaluationIndex& evaluations)
{
    if (!request.accuracy)
        return {};
    std::vector<GroupKey> keys;
    keys.reserve(groups.size());
    for (const GroupFrontier& g : groups)
        keys.push_back(g.key);
    std::vector<AccuracyVerdict> verdicts = judgeAccuracy(evaluations, keys, *request.accuracy, request.scope.asOf);
    for (const GroupKey& k : failingGroups(verdicts))
        if (std::find(request.excludedGroups.begin(), request.excludedGroups.end(), k) == request.excludedGroups.end())
            request.excludedGroups.push_back(k);
    return verdicts;
}

KnotConfigurations knotConfigurations(RunStore& store, const std::vector<GroupFrontier>& frontiers)
{
    std::vector<long long> ids;
    for (const GroupFrontier& g : frontiers)
        for (const Point& p : g.points)
            ids.push_back(p.runId);
    KnotConfigurations out;
    for (const StoredRun& run : store.runs(ids))
        out[run.id]
            = ConfigurationHint { run.record.disaggregated, run.record.tp, run.record.ep, run.record.dpAttention };
    return out;
}

std::optional<ConfigurationHint> readingConfiguration(const std::vector<GroupFrontier>& frontiers,
    const KnotConfigurations& configurations, const GroupKey& group, double target)
{
    const auto g
        = std::find_if(frontiers.begin(), frontiers.end(), [&group](const GroupFrontier& f) { return f.key == group; });
    if (g == frontiers.end() || g->points.empty() || !(target > 0))
        return std::nullopt;
    const auto distance = [target](const Point& p) { return std::abs(std::log(std::max(p.x, 1e-12) / target)); };
    const Point& nearest = *std::min_element(g->points.begin(), g->points.end(),
        [&distance](const Point& a, const Point& b) { return distance(a) < distance(b); });
    const auto it = configurations.find(nearest.runId);
    return it == configurations.end() ? std::nullopt : std::optional<ConfigurationHint>(it->second);
}

void attachAccuracy(std::vector<HardwareLadder>& ladders, const EvaluationIndex& evaluations, const std::string& task,
    const std::string& asOf, const std::vector<GroupFrontier>* frontiers, const KnotConfigurations* configurations)
{
    // rows of one group and configuration (a hardware's targets read on one frontier) look it up once
    using Asked = std::pair<GroupKey, std::optional<std::tuple<bool, int, int, bool>>>;
    std::map<Asked, std::optional<GroupAccuracy>> known;
    for (HardwareLadder& l : ladders)
        for (LadderRow& r : l.rows) {
            r.accuracyTask = task;
            const auto group = r.group(); // of the reading chosen (LadderRequest::reading)
            if (!group) {
                r.accuracy.reset();
                continue;
            }
            std::optional<ConfigurationHint> hint;
            const auto& d = r.entry.deployable;
            if (r.reading == Reading::Deployable && r.entry.clamped == Clamp::None && d && configurations) {
                // the configuration read is the deployable's knot
                if (const auto it = configurations->find(d->runId); it != configurations->end())
                    hint = it->second;
            } else if (frontiers && configurations) {
                hint = readingConfiguration(*frontiers, *configurations, *group, r.entry.target);
            }
            Asked asked { *group, std::nullopt };
            if (hint)
                asked.second = std::tuple { hint->disaggregated, hint->tp, hint->ep, hint->dpAttention };
            auto it = known.find(asked);
            if (it == known.end())
                it = known.emplace(asked, groupAccuracy(evaluations, *group, task, asOf, hint)).first;
            r.accuracy = it->second;
        }
}

std::string ladderAccuracyTask(const LadderRequest& request, const EvaluationIndex& evaluations)
{
    if (!request.accuracyTask.empty())
        return request.accuracyTask;
    if (request.accuracy)
        return request.accuracy->task;
    const std::vector<std::string> tasks = evaluations.tasks();
    if (tasks.empty())
        return {};
    return std::find(tasks.begin(), tasks.end(), "gsm8k") != tasks.end() ? "gsm8k" : tasks.front();
}

Status knownAccuracyTask(
    const EvaluationIndex& evaluations, const std::string& task, const std::string& model, const std::string& option)
{
    const std::vector<std::string> tasks = evaluations.tasks();
    if (std::find(tasks.begin(), tasks.end(), task) != tasks.end())
        return ok();
    if (tasks.empty())
        return Error { "the store holds no evaluations of " + model + " (" + option + " " + task
            + "): import InferenceX evaluations first (docs/evaluations.md)" };
    std::string names;
    for (const std::string& t : tasks)
        names += (names.empty() ? "" : ", ") + t;
    return Error { "the store holds no evaluation of " + model + " on '" + task + "' (" + option + "); it has "
        + names };
}

namespace {

// The cheapest reading's cost among the ladders' first target, and its hardware
std::pair<std::optional<double>, std::string> cheapest(const std::vector<HardwareLadder>& ladders)
{
    std::optional<double> best;
    std::string hardware;
    for (const HardwareLadder& l : ladders)
        if (!l.rows.empty() && l.rows[0].costPerMTok && (!best || *l.rows[0].costPerMTok < *best)) {
            best = l.rows[0].costPerMTok;
            hardware = l.hardware;
        }
    return { best, hardware };
}

} // namespace

AccuracyCost accuracyCost(const std::vector<HardwareLadder>& before, const std::vector<HardwareLadder>& after)
{
    AccuracyCost c;
    std::tie(c.before, c.hardwareBefore) = cheapest(before);
    std::tie(c.after, c.hardwareAfter) = cheapest(after);
    return c;
}

std::string accuracyCostSentence(const AccuracyRequirement& requirement, const AccuracyCost& cost, double target)
{
    const std::string at = " at " + shortNumber(target) + " tok/s/user";
    std::string s = "Requiring " + accuracyRequirementWords(requirement)
        + (requirement.allowUnevaluated ? " (groups not evaluated kept)" : "");
    if (!cost.after)
        return s + " leaves no hardware that reaches " + shortNumber(target) + " tok/s/user.";
    const auto priced
        = [](double usd, const std::string& hw) { return money(usd) + " (" + hardwareDisplayName(hw) + ")"; };
    if (!cost.before || *cost.after <= *cost.before + 1e-12)
        return s + " leaves the cheapest $/1M tokens" + at + " at " + priced(*cost.after, cost.hardwareAfter) + ".";
    return s + " raises the cheapest $/1M tokens" + at + " from " + priced(*cost.before, cost.hardwareBefore) + " to "
        + priced(*cost.after, cost.hardwareAfter) + ".";
}

} // namespace paretoscope
