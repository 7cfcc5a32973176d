#include "app/clihistory.h"

#include <iostream>

#include "core/analysis/history.h"
#include "core/analysis/viewoptions.h"
#include "core/model/runselection.h"
#include "core/output/historyreports.h"

namespace paretoscope::cli {
namespace {

// --diff DATE1,DATE2: two dates (either order is kept as given).
bool diffDates(const Args& a, std::string& before, std::string& after, std::string& error)
{
    const auto dates = a.list("diff");
    if (dates.size() != 2 || !isIsoDate(dates[0]) || !isIsoDate(dates[1])) {
        error = "--diff must be two dates like 2026-05-01,2026-06-01, got '" + a.value("diff").value_or("") + "'";
        return false;
    }
    before = dates[0];
    after = dates[1];
    return true;
}

int printDiff(const Args& a, const ScopeTimeline& timeline, LadderRequest request, const std::string& format)
{
    std::string error, before, after;
    if (!diffDates(a, before, after, error))
        return usageError(error);
    if (!a.has("targets") && a.has("target"))
        request.targets = { *parseDouble(*a.value("target")) };
    auto diff = computeDiff(timeline, bundledPricing(), request, dayNumber(before), dayNumber(after));
    if (!diff)
        return usageError(diff.error());
    if (format == "json")
        std::cout << diffJson(*diff, before, after);
    else if (format == "csv")
        std::cout << diffCsv(*diff, before, after);
    else
        std::cout << diffTable(*diff, before, after);
    return 0;
}

} // namespace

int cmdHistory(const Invocation& in)
{
    const Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "json", "csv", "table" }, format, error))
        return usageError(error);
    auto view = viewFromOptions(a.options);
    if (!view)
        return usageError(view.error());
    HistoryRequest req;
    req.scope = view->request.scope;
    req.metric = view->request.metric;
    req.price = view->request.price;
    req.hideSparse = view->request.hideSparse;
    if (auto t = a.value("target")) {
        auto v = parseDouble(*t);
        if (!v || *v <= 0)
            return usageError("--target must be a number above zero (tok/s/user), got '" + *t + "'");
        req.target = *v;
    }
    if (std::string before, after; a.has("diff") && !diffDates(a, before, after, error))
        return usageError(error); // before the store is opened
    if (auto price = priceFor(bundledPricing(), req.price, ""); !price)
        return usageError(price.error());
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, req.scope.model))
        return 1;
    const ScopeTimeline timeline = ScopeTimeline::load(*store, req.scope, req.metric);
    if (readFailed(*store))
        return 1;
    if (timeline.days().empty())
        return emptyScope(*store, req.scope);
    if (a.has("diff"))
        return printDiff(a, timeline, view->request, format);
    auto history = computeHistory(timeline, bundledPricing(), req);
    if (!history)
        return usageError(history.error());
    if (format == "json")
        std::cout << historyJson(*history);
    else if (format == "csv")
        std::cout << historyCsv(*history);
    else
        std::cout << historyTable(*history, req.metric);
    return 0;
}

} // namespace paretoscope::cli
