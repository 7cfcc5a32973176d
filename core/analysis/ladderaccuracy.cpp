#include "core/analysis/ladderaccuracy.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"

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

void attachAccuracy(std::vector<HardwareLadder>& ladders, const EvaluationIndex& evaluations, const std::string& task,
    const std::string& asOf)
{
    // rows of one group (a hardware's targets read on one frontier) look it up once
    std::map<GroupKey, std::optional<GroupAccuracy>> known;
    for (HardwareLadder& l : ladders)
        for (LadderRow& r : l.rows) {
            r.accuracyTask = task;
            if (!r.entry.group) {
                r.accuracy.reset();
                continue;
            }
            auto it = known.find(*r.entry.group);
            if (it == known.end())
                it = known.emplace(*r.entry.group, groupAccuracy(evaluations, *r.entry.group, task, asOf)).first;
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

Status knownAccuracyTask(const EvaluationIndex& evaluations, const std::string& task, const std::string& model)
{
    const std::vector<std::string> tasks = evaluations.tasks();
    if (std::find(tasks.begin(), tasks.end(), task) != tasks.end())
        return ok();
    if (tasks.empty())
        return Error { "the store holds no evaluations of " + model + " (--accuracy-task " + task
            + "): import InferenceX evaluations first (docs/evaluations.md)" };
    std::string names;
    for (const std::string& t : tasks)
        names += (names.empty() ? "" : ", ") + t;
    return Error { "the store holds no evaluation of " + model + " on '" + task + "' (--accuracy-task); it has "
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
