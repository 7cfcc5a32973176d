#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/accuracy.h"
#include "core/analysis/ladder.h"
#include "core/model/result.h"

namespace paretoscope {

class RunStore;

/// Judges the groups read against the request's accuracy requirement (none: nothing) as of the scope's day, and puts
/// those that fail in the request's excludedGroups. Returns the verdicts.
std::vector<AccuracyVerdict> applyAccuracyRequirement(
    LadderRequest& request, const std::vector<GroupFrontier>& groups, const EvaluationIndex& evaluations);

/// Reads the configuration of every knot of the frontiers from the store (one query).
KnotConfigurations knotConfigurations(RunStore& store, const std::vector<GroupFrontier>& frontiers);

/// The configuration a reading at the target comes from: that of its group's frontier knot nearest the target (in
/// interactivity, on a log scale: the configuration that delivers there), where known.
std::optional<ConfigurationHint> readingConfiguration(const std::vector<GroupFrontier>& frontiers,
    const KnotConfigurations& configurations, const GroupKey& group, double target);

/// Puts on each reading the accuracy of its group on the task, as of the day (groupAccuracy); with the frontiers and
/// their knots' configurations, read on the evaluated configuration closest to the reading's (readingConfiguration),
/// else the group's latest. Readings without a group, or of a group not evaluated, get the task and no accuracy.
void attachAccuracy(std::vector<HardwareLadder>& ladders, const EvaluationIndex& evaluations, const std::string& task,
    const std::string& asOf, const std::vector<GroupFrontier>* frontiers = nullptr,
    const KnotConfigurations* configurations = nullptr);

/// The task a ladder shows accuracy on: the one asked (request.accuracyTask), else the requirement's, else gsm8k where
/// evaluated, else the first evaluated; empty without evaluations (and nothing asked).
std::string ladderAccuracyTask(const LadderRequest& request, const EvaluationIndex& evaluations);

/// Whether a task asked for (--accuracy-task) is one the model has evaluations on; the error names those it has.
Status knownAccuracyTask(const EvaluationIndex& evaluations, const std::string& task, const std::string& model,
    const std::string& option = "--accuracy-task");

/// What requiring an accuracy cost at a target: the cheapest $ per million tokens among the hardware read without and
/// with the requirement, and which hardware gave it.
struct AccuracyCost {
    std::optional<double> before, after;
    std::string hardwareBefore, hardwareAfter;
};
AccuracyCost accuracyCost(const std::vector<HardwareLadder>& before, const std::vector<HardwareLadder>& after);
/// "Requiring GSM8K >= 95% raises the cheapest $/1M tokens at 50 tok/s/user from $0.047 (B300) to $0.155 (MI355X).",
/// "... leaves the cheapest ... at $0.155 (MI355X).", or "... leaves no hardware that reaches 50 tok/s/user."
std::string accuracyCostSentence(const AccuracyRequirement& requirement, const AccuracyCost& cost, double target);

} // namespace paretoscope
