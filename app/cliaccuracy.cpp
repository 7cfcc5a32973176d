#include "app/cliaccuracy.h"

#include <iostream>

#include "core/analysis/accuracy.h"
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
    if (task.empty()) { // gsm8k where evaluated (the task InferenceX runs on every model), else the first
        const std::vector<std::string> tasks = evaluatedTasks(storedEvaluations(*store, key));
        task = tasks.empty() || std::find(tasks.begin(), tasks.end(), "gsm8k") != tasks.end() ? "gsm8k" : tasks[0];
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

} // namespace paretoscope::cli
