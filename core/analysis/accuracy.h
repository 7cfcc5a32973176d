#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/model/evaluation.h"
#include "core/model/result.h"
#include "core/model/scope.h"
#include "core/store/evaluationstore.h"

namespace paretoscope {

/// The configuration a reading comes from (its frontier point's run), to pick among a group's evaluated
/// configurations the one closest to it.
struct ConfigurationHint {
    bool disaggregated = false;
    int tp = 0;
    int ep = 0;
    bool dpAttention = false;
};

/// The configurations of frontier knots, by run id: what a reading's configuration is taken from.
using KnotConfigurations = std::map<long long, ConfigurationHint>;

/// What accuracy comes with a group on a task (docs/evaluations.md): the evaluation chosen and why.
struct GroupAccuracy {
    EvaluationRecord evaluation; ///< the one read
    AccuracyMetric metric = AccuracyMetric::ExactMatchStrict;
    Accuracy accuracy;
    int configurations = 0; ///< how many configurations of the group were evaluated on the task (as of the day)
    /// The evaluation's configuration equals the hint's (disaggregation, tp, ep, attention data parallel); false
    /// where there was no hint or none matched (then the group's most recent evaluation is read).
    bool sameConfiguration = false;
};

/// A model's evaluations sorted by group and task, so that a reading finds its group's in a lookup (a ladder of 54
/// readings over 100,000 evaluations scanned them all for each). It keeps each answer once read (per group, task,
/// day, metric and configuration asked): a slider step asks the same again. One thread at a time, as FrontierCache.
class EvaluationIndex {
public:
    struct Question {
        GroupKey group;
        std::string task, asOf;
        int metric = -1; ///< AccuracyMetric, or -1 for each record's own
        /// The configuration asked for (ConfigurationHint: disaggregated, tp, ep, attention data parallel), if any.
        std::optional<std::tuple<bool, int, int, bool>> configuration;
        auto operator<=>(const Question&) const = default;
    };
    EvaluationIndex() = default;
    explicit EvaluationIndex(const std::vector<StoredEvaluation>& evaluations);
    /// The evaluations of a group on a task (empty when none).
    const std::vector<EvaluationRecord>& of(const GroupKey& group, const std::string& task) const;
    /// The tasks evaluated, sorted.
    std::vector<std::string> tasks() const;
    bool empty() const { return m_byGroup.empty(); }

    /// An answer kept from an earlier question, or null.
    const std::optional<GroupAccuracy>* known(const Question& q) const;
    void remember(const Question& q, const std::optional<GroupAccuracy>& answer) const;

private:
    std::map<std::pair<GroupKey, std::string>, std::vector<EvaluationRecord>> m_byGroup;
    mutable std::map<Question, std::optional<GroupAccuracy>> m_answers;
};

/// The accuracy of a group (hardware, engine, precision, spec decoding) on a task, from a model's evaluations: per
/// configuration the latest evaluation on or before asOf (empty: the latest of all), the same rule as runs; then the
/// configuration that matches the hint (disaggregation, tp, ep and attention data parallel, in that order of weight),
/// else the latest; ties by the most questions scored, then the lowest concurrency, then the configuration that sorts
/// first (aggregated, smaller tp, then ep). The metric given where the record
/// has it, else its own default (strict exact match, else flexible, else score). Empty: not evaluated (never 0).
std::optional<GroupAccuracy> groupAccuracy(const std::vector<StoredEvaluation>& evaluations, const GroupKey& group,
    const std::string& task, const std::string& asOf = {}, const std::optional<ConfigurationHint>& hint = {},
    std::optional<AccuracyMetric> metric = {});

/// The same from an index.
std::optional<GroupAccuracy> groupAccuracy(const EvaluationIndex& index, const GroupKey& group, const std::string& task,
    const std::string& asOf = {}, const std::optional<ConfigurationHint>& hint = {},
    std::optional<AccuracyMetric> metric = {});

/// Two accuracies are within error when their intervals of two standard errors each side overlap.
bool withinError(const Accuracy& a, const Accuracy& b);

/// A task as a reader names it: "GSM8K", "GPQA_DIAMOND" (upper case).
std::string taskName(const std::string& task);

/// "GSM8K 95.8% ± 0.6" (the task upper-cased, percent with one decimal; "± 0.0" where no error was given).
std::string accuracyText(const std::string& task, const Accuracy& a);

/// The tasks a model's evaluations cover, sorted.
std::vector<std::string> evaluatedTasks(const std::vector<StoredEvaluation>& evaluations);

/// An accuracy the groups must meet to stay on the frontiers (--min-accuracy; docs/evaluations.md): at least a
/// fraction on the task, or within N standard errors of the best group of the same hardware (intervals of N standard
/// errors each side overlap, withinError's rule with N = 2). A group not evaluated leaves unless allowed.
struct AccuracyRequirement {
    std::string task;
    std::optional<double> minimum; ///< a fraction, 0 to 1
    std::optional<double> withinErrors; ///< N
    bool allowUnevaluated = false;
    bool operator==(const AccuracyRequirement&) const = default;
};

/// "gsm8k:0.95", "gsm8k:95%" or "gsm8k:best-2se"; the error names the text and says what is taken.
Result<AccuracyRequirement> parseAccuracyRequirement(std::string_view text);
/// A task name as typed (--accuracy-task, the task of --min-accuracy): letters, digits, '_' and '-', at most 64,
/// lower-cased ("GSM8K" is gsm8k).
Result<std::string> accuracyTaskName(std::string_view text);
/// The text parseAccuracyRequirement reads back (without --allow-unevaluated): "gsm8k:0.95", "gsm8k:best-2se".
std::string accuracyRequirementText(const AccuracyRequirement& r);
/// "GSM8K >= 95%", "GSM8K within 2 standard errors of the best on its hardware".
std::string accuracyRequirementWords(const AccuracyRequirement& r);

/// A group judged against a requirement.
struct AccuracyVerdict {
    GroupKey group;
    std::optional<GroupAccuracy> accuracy; ///< empty: not evaluated
    bool passes = false;
};

/// Judges every group (as of the day: groupAccuracy's rule, without a configuration to match).
std::vector<AccuracyVerdict> judgeAccuracy(const EvaluationIndex& evaluations, const std::vector<GroupKey>& groups,
    const AccuracyRequirement& requirement, const std::string& asOf = {});

/// The groups that fail, of the verdicts.
std::vector<GroupKey> failingGroups(const std::vector<AccuracyVerdict>& verdicts);

class RunStore;

/// One group of a model with what accuracy comes with it on a task (empty: not evaluated).
struct GroupAccuracyRow {
    GroupKey group;
    std::optional<GroupAccuracy> accuracy;
};

/// Every group of a model, those with runs stored and those evaluated, sorted by group, each with its accuracy on
/// the task as of the day (groupAccuracy without a hint). On a store error: what was read, and the store's read error
/// set (RunStore::readStatus).
std::vector<GroupAccuracyRow> accuracyByGroup(RunStore& store, const std::string& model, const std::string& task,
    const std::string& asOf = {}, std::optional<AccuracyMetric> metric = {});

} // namespace paretoscope
