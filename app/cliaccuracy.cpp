#include "app/cliaccuracy.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "core/analysis/accuracy.h"
#include "core/analysis/frontiercache.h"
#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/pricing.h"
#include "core/analysis/viewoptions.h"
#include "core/output/accuracyreports.h"
#include "core/store/runstore.h"

namespace paretoscope::cli {

int cmdAccuracy(const Invocation& in)
{
    const Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "table", "json", "csv" }, format, error))
        return usageError(error);
    auto model = a.value("model");
    if (!model || model->empty())
        return usageError("accuracy needs --model M (a stored model, e.g. dsr1 or DeepSeek-R1-0528)");
    std::optional<AccuracyMetric> metric;
    if (auto m = a.value("metric")) {
        metric = accuracyMetricFromName(*m);
        if (!metric)
            return usageError("--metric must be em_strict, em_flexible or score, got '" + *m + "'");
    }
    const std::string asOf = a.value("as-of").value_or("");
    if (!asOf.empty() && (asOf.size() != 10 || asOf[4] != '-' || asOf[7] != '-'))
        return usageError("--as-of must be a date, yyyy-mm-dd, got '" + asOf + "'");
    auto store = in.store();
    if (!store)
        return 1;
    std::string key = *model;
    if (!resolveModel(*store, key))
        return 1;
    std::string task = a.value("task").value_or("");
    const std::vector<StoredEvaluation> stored = storedEvaluations(*store, key);
    if (task.empty()) { // gsm8k where evaluated (the task InferenceX runs on every model), else the first
        const std::vector<std::string> tasks = evaluatedTasks(stored);
        task = tasks.empty() || std::find(tasks.begin(), tasks.end(), "gsm8k") != tasks.end() ? "gsm8k" : tasks[0];
    } else if (auto known = knownAccuracyTask(EvaluationIndex(stored), task, key, "--task");
               !known && !stored.empty()) {
        // a task the model has no evaluation of (a misspelt one): every group would read "not evaluated"
        std::cerr << "paretoscope-cli: " << known.error() << "\n";
        return 1;
    }
    const std::vector<GroupAccuracyRow> rows = accuracyByGroup(*store, key, task, asOf, metric);
    if (readFailed(*store))
        return 1;
    if (rows.empty()) {
        std::cerr << "paretoscope-cli: no runs and no evaluations of model '" << key << "' in the store\n";
        return 1;
    }
    if (format == "json")
        std::cout << accuracyJson(rows, task);
    else if (format == "csv")
        std::cout << accuracyCsv(rows, task);
    else
        std::cout << accuracyTable(rows, task);
    return 0;
}

int cmdPrecision(const Invocation& in)
{
    const Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "table", "json", "csv" }, format, error))
        return usageError(error);
    auto view = viewFromOptions(a.options);
    if (!view)
        return usageError(view.error());
    LadderRequest& req = view->request;
    double target = 50;
    if (auto t = a.value("target")) {
        char* end = nullptr;
        target = std::strtod(t->c_str(), &end);
        if (t->empty() || end != t->c_str() + t->size() || !std::isfinite(target) || target <= 0)
            return usageError("--target must be a number above zero (tok/s/user), got '" + *t + "'");
    }
    req.targets = { target };
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, req.scope.model))
        return 1;
    FrontierCache cache(*store);
    const auto& groups = cache.frontiers(req.scope, req.metric);
    const EvaluationIndex evaluations(storedEvaluations(*store, req.scope.model));
    if (readFailed(*store))
        return 1;
    if (groups.empty()) {
        std::cerr << "paretoscope-cli: no runs in this scope\n";
        return 1;
    }
    std::string task = a.value("task").value_or(ladderAccuracyTask(req, evaluations));
    if (task.empty())
        task = "gsm8k";
    auto tradeoffs = precisionTradeoff(groups, bundledPricing(), req, evaluations, task);
    if (!tradeoffs)
        return usageError(tradeoffs.error());
    if (format == "json")
        std::cout << precisionJson(*tradeoffs, task, target);
    else if (format == "csv")
        std::cout << precisionCsv(*tradeoffs, task, target);
    else
        std::cout << precisionTable(*tradeoffs, task, target);
    return 0;
}

} // namespace paretoscope::cli
