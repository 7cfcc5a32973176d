#include "core/analysis/accuracy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "core/store/runstore.h"

namespace paretoscope {
namespace {

// A configuration of a group, as evaluations name it
using ConfigKey = std::tuple<bool, int, int, bool, int, int, bool, int>;

ConfigKey configOf(const EvaluationRecord& r)
{
    return { r.disaggregated, r.tp, r.ep, r.dpAttention, r.prefillTp, r.prefillEp, r.prefillDpAttention, r.gpus };
}

// How close an evaluation's configuration is to the hint: disaggregation first, then tp, ep and attention data
// parallel (higher is closer; 15 is all four equal)
int closeness(const EvaluationRecord& r, const ConfigurationHint& h)
{
    return (r.disaggregated == h.disaggregated ? 8 : 0) + (r.tp == h.tp ? 4 : 0) + (r.ep == h.ep ? 2 : 0)
        + (r.dpAttention == h.dpAttention ? 1 : 0);
}

} // namespace

namespace {

// groupAccuracy over the evaluations of the group and task
std::optional<GroupAccuracy> accuracyAmong(const std::vector<const EvaluationRecord*>& rows, const std::string& asOf,
    const std::optional<ConfigurationHint>& hint, std::optional<AccuracyMetric> metric)
{
    // per configuration, the latest evaluation as of the day (of one date, the one with the most questions, then the
    // lowest concurrency: a rerun of the same day at another load is the same configuration's)
    std::map<ConfigKey, const EvaluationRecord*> latest;
    for (const EvaluationRecord* p : rows) {
        const EvaluationRecord& r = *p;
        if (!asOf.empty() && r.date > asOf)
            continue;
        const EvaluationRecord*& kept = latest[configOf(r)];
        if (!kept || std::tie(r.date, r.questions) > std::tie(kept->date, kept->questions)
            || (r.date == kept->date && r.questions == kept->questions && r.concurrency < kept->concurrency))
            kept = &r;
    }
    if (latest.empty())
        return std::nullopt;
    const EvaluationRecord* best = nullptr;
    int bestCloseness = -1;
    for (const auto& [key, r] : latest) {
        const int c = hint ? closeness(*r, *hint) : 0;
        const bool better = !best || c > bestCloseness
            || (c == bestCloseness
                && (std::tie(r->date, r->questions) > std::tie(best->date, best->questions)
                    || (r->date == best->date && r->questions == best->questions
                        && r->concurrency < best->concurrency)));
        if (better) {
            best = r;
            bestCloseness = c;
        }
    }
    GroupAccuracy out;
    out.evaluation = *best;
    out.configurations = static_cast<int>(latest.size());
    out.sameConfiguration = hint && bestCloseness == 15;
    out.metric = metric && best->accuracy(*metric) ? *metric : best->defaultMetric();
    out.accuracy = best->accuracy(out.metric).value_or(Accuracy {});
    return out;
}

} // namespace

EvaluationIndex::EvaluationIndex(const std::vector<StoredEvaluation>& evaluations)
{
    for (const StoredEvaluation& s : evaluations) {
        const EvaluationRecord& r = s.record;
        m_byGroup[{ GroupKey { r.hardware, r.engine, r.precision, r.specDecoding }, r.task }].push_back(r);
    }
}

const std::vector<EvaluationRecord>& EvaluationIndex::of(const GroupKey& group, const std::string& task) const
{
    static const std::vector<EvaluationRecord> none;
    const auto it = m_byGroup.find({ group, task });
    return it == m_byGroup.end() ? none : it->second;
}

std::vector<std::string> EvaluationIndex::tasks() const
{
    std::set<std::string> tasks;
    for (const auto& [key, rows] : m_byGroup)
        tasks.insert(key.second);
    return { tasks.begin(), tasks.end() };
}

std::optional<GroupAccuracy> groupAccuracy(const std::vector<StoredEvaluation>& evaluations, const GroupKey& group,
    const std::string& task, const std::string& asOf, const std::optional<ConfigurationHint>& hint,
    std::optional<AccuracyMetric> metric)
{
    std::vector<const EvaluationRecord*> rows;
    for (const StoredEvaluation& s : evaluations) {
        const EvaluationRecord& r = s.record;
        if (r.task == task && r.hardware == group.hardware && r.engine == group.engine && r.precision == group.precision
            && r.specDecoding == group.specDecoding)
            rows.push_back(&r);
    }
    return accuracyAmong(rows, asOf, hint, metric);
}

const std::optional<GroupAccuracy>* EvaluationIndex::known(const Question& q) const
{
    const auto it = m_answers.find(q);
    return it == m_answers.end() ? nullptr : &it->second;
}

void EvaluationIndex::remember(const Question& q, const std::optional<GroupAccuracy>& answer) const
{
    m_answers[q] = answer;
}

std::optional<GroupAccuracy> groupAccuracy(const EvaluationIndex& index, const GroupKey& group, const std::string& task,
    const std::string& asOf, const std::optional<ConfigurationHint>& hint, std::optional<AccuracyMetric> metric)
{
    EvaluationIndex::Question question { group, task, asOf, metric ? static_cast<int>(*metric) : -1, std::nullopt };
    if (hint) // a reading of its own configuration: asked again at each slider step, as the group's latest is
        question.configuration = std::tuple { hint->disaggregated, hint->tp, hint->ep, hint->dpAttention };
    if (const auto* answer = index.known(question))
        return *answer;
    const std::vector<EvaluationRecord>& of = index.of(group, task);
    std::vector<const EvaluationRecord*> rows;
    rows.reserve(of.size());
    for (const EvaluationRecord& r : of)
        rows.push_back(&r);
    std::optional<GroupAccuracy> answer = accuracyAmong(rows, asOf, hint, metric);
    index.remember(question, answer);
    return answer;
}

bool withinError(const Accuracy& a, const Accuracy& b)
{
    return std::abs(a.value - b.value) <= 2 * a.standardError + 2 * b.standardError;
}

std::string taskName(const std::string& task)
{
    std::string name = task;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return name;
}

std::string accuracyText(const std::string& task, const Accuracy& a)
{
    const std::string name = taskName(task);
    char buf[64];
    std::snprintf(buf, sizeof buf, " %.1f%% \xc2\xb1 %.1f", 100 * a.value, 100 * a.standardError);
    return name + buf;
}

Result<std::string> accuracyTaskName(std::string_view text)
{
    const auto valid = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; };
    if (text.empty() || text.size() > 64 || !std::all_of(text.begin(), text.end(), valid))
        return Error { "--accuracy-task must be a task name of letters, digits, '_' and '-' (gsm8k), got '"
            + std::string(text.substr(0, 64)) + "'" };
    std::string task;
    for (char c : text)
        task += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return task;
}

Result<AccuracyRequirement> parseAccuracyRequirement(std::string_view text)
{
    const auto fail = [&text] {
        return Error { "--min-accuracy must be TASK:FRACTION (gsm8k:0.95), TASK:PERCENT% (gsm8k:95%) or TASK:best-Nse "
                       "(gsm8k:best-2se: within N standard errors of the best on its hardware), got '"
            + std::string(text) + "'" };
    };
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size())
        return fail();
    AccuracyRequirement r;
    auto task = accuracyTaskName(text.substr(0, colon));
    if (!task)
        return fail();
    r.task = *task;
    std::string value(text.substr(colon + 1));
    if (value.starts_with("best-") && value.ends_with("se")) {
        const std::string n = value.substr(5, value.size() - 7);
        char* end = nullptr;
        const double v = std::strtod(n.c_str(), &end);
        if (n.empty() || end != n.c_str() + n.size() || !std::isfinite(v))
            return fail();
        if (v <= 0 || v > 10)
            return Error { "--min-accuracy '" + std::string(text)
                + "': N standard errors is a number above 0 and at most 10 (best-1se, best-2se ...)" };
        r.withinErrors = v;
        return r;
    }
    const bool percent = value.ends_with('%');
    if (percent)
        value.pop_back();
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v))
        return fail();
    if (percent)
        v /= 100;
    if (v < 0 || v > 1)
        return Error { "--min-accuracy '" + std::string(text)
            + "': the accuracy is a fraction from 0 to 1 (or 0% to "
              "100%)" };
    r.minimum = v;
    return r;
}

std::string accuracyRequirementText(const AccuracyRequirement& r)
{
    char buf[48];
    if (r.withinErrors)
        std::snprintf(buf, sizeof buf, "best-%gse", *r.withinErrors);
    else
        std::snprintf(buf, sizeof buf, "%g", r.minimum.value_or(0));
    return r.task + ":" + buf;
}

std::string accuracyRequirementWords(const AccuracyRequirement& r)
{
    std::string name = r.task;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    char buf[96];
    if (r.withinErrors)
        std::snprintf(buf, sizeof buf, " within %g standard errors of the best on its hardware", *r.withinErrors);
    else
        std::snprintf(buf, sizeof buf, " >= %g%%", 100 * r.minimum.value_or(0));
    return name + buf;
}

std::vector<AccuracyVerdict> judgeAccuracy(const EvaluationIndex& evaluations, const std::vector<GroupKey>& groups,
    const AccuracyRequirement& requirement, const std::string& asOf)
{
    std::vector<AccuracyVerdict> out;
    std::map<std::string, Accuracy> best; // per hardware, the highest accuracy of its groups evaluated
    for (const GroupKey& g : groups) {
        AccuracyVerdict v { g, groupAccuracy(evaluations, g, requirement.task, asOf), false };
        if (v.accuracy) {
            auto [it, fresh] = best.try_emplace(g.hardware, v.accuracy->accuracy);
            if (!fresh && v.accuracy->accuracy.value > it->second.value)
                it->second = v.accuracy->accuracy;
        }
        out.push_back(std::move(v));
    }
    for (AccuracyVerdict& v : out) {
        if (!v.accuracy) {
            v.passes = requirement.allowUnevaluated;
        } else if (requirement.withinErrors) {
            const Accuracy& top = best.at(v.group.hardware);
            const Accuracy& mine = v.accuracy->accuracy;
            v.passes = top.value - mine.value <= *requirement.withinErrors * (top.standardError + mine.standardError);
        } else {
            v.passes = v.accuracy->accuracy.value >= requirement.minimum.value_or(0);
        }
    }
    return out;
}

std::vector<GroupKey> failingGroups(const std::vector<AccuracyVerdict>& verdicts)
{
    std::vector<GroupKey> out;
    for (const AccuracyVerdict& v : verdicts)
        if (!v.passes)
            out.push_back(v.group);
    return out;
}

std::vector<std::string> evaluatedTasks(const std::vector<StoredEvaluation>& evaluations)
{
    std::set<std::string> tasks;
    for (const StoredEvaluation& s : evaluations)
        tasks.insert(s.record.task);
    return { tasks.begin(), tasks.end() };
}

} // namespace paretoscope

namespace paretoscope {

std::vector<GroupAccuracyRow> accuracyByGroup(RunStore& store, const std::string& model, const std::string& task,
    const std::string& asOf, std::optional<AccuracyMetric> metric)
{
    const std::vector<StoredEvaluation> evaluations = storedEvaluations(store, model);
    std::set<GroupKey> groups;
    for (const ScopeSummary& s : store.scopes()) {
        if (s.model != model)
            continue;
        Scope scope;
        scope.model = s.model;
        scope.isl = s.isl;
        scope.osl = s.osl;
        scope.workload = s.workload;
        for (const Series& series : store.series(scope))
            groups.insert(series.key);
    }
    for (const StoredEvaluation& e : evaluations)
        if (e.record.task == task)
            groups.insert({ e.record.hardware, e.record.engine, e.record.precision, e.record.specDecoding });
    std::vector<GroupAccuracyRow> out;
    out.reserve(groups.size());
    for (const GroupKey& g : groups)
        out.push_back({ g, groupAccuracy(evaluations, g, task, asOf, std::nullopt, metric) });
    return out;
}

} // namespace paretoscope
