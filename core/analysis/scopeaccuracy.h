#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/accuracy.h"
#include "core/analysis/ladder.h"

namespace paretoscope {

struct ScopeData;
struct PlanFrontiers;

/// What an accuracy requirement did to a scope's groups (docs/evaluations.md): every group judged, as of the
/// scope's day.
struct AccuracyFilter {
    AccuracyRequirement requirement;
    std::vector<AccuracyVerdict> verdicts;
    /// The scope's frontiers before the requirement (requireAccuracy on a scope): what the summary's "what it cost"
    /// compares with.
    std::vector<GroupFrontier> before;
    /// The groups left out because their accuracy is below the requirement, and because they were not evaluated.
    std::size_t below() const;
    std::size_t unevaluated() const;
    /// "4 of 30 groups left out by GSM8K >= 95%: 3 below it, 1 not evaluated"; "every group meets GSM8K >= 95%".
    std::string words() const;
};

/// Leaves out of frontiers the groups a failing verdict names.
void removeFailingGroups(std::vector<GroupFrontier>& frontiers, const std::vector<AccuracyVerdict>& verdicts);

/// Judges the scope's groups against the requirement as of the scope's day (judgeAccuracy) on the scope's
/// evaluations (none: every group is not evaluated), and leaves those that fail out of its frontiers, runs and
/// series (the speed-of-light bounds follow the groups left): the chart, the readout, the ladder and the summary then
/// read only the groups that meet it. The verdicts are kept in data.accuracyFilter.
void requireAccuracy(ScopeData& data, const AccuracyRequirement& requirement);

/// Sets data.accuracyTask, once for the chart, readout, ladder, summary and plan of the scope: the task asked (the
/// explorer's task box, --accuracy-task), else the requirement's, else GSM8K where evaluated, else the first
/// evaluated (ladderAccuracyTask); empty when nothing is asked and the model has no evaluations.
void chooseAccuracyTask(ScopeData& data, const std::string& asked);

/// The same for a plan: the groups of its frontiers judged (as of its scope's day), those that fail left out of its
/// frontiers and configuration curves; a hardware all of whose groups fail is named in accuracyExcluded (the plan
/// says so rather than "no data").
AccuracyFilter requireAccuracy(
    PlanFrontiers& data, const EvaluationIndex& evaluations, const AccuracyRequirement& requirement);

struct Plan;

/// Puts on each hardware of a plan that was read the accuracy of the group it sized on (groupAccuracy as of the day,
/// the configuration sized as the hint: the evaluated configuration closest to it), and the task on every hardware.
void attachAccuracy(Plan& plan, const EvaluationIndex& evaluations, const std::string& task, const std::string& asOf);

} // namespace paretoscope
