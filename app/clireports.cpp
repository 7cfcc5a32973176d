// The store's reading commands of paretoscope-cli and the import ones: import, ladder, summary, frontier, sol, export,
// tiers, scopes, check, recover, seed. Each prints what core computes; the command table is in climain.cpp.
#include "app/clireports.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <unistd.h>
#include <vector>

#include "app/cliargs.h"
#include "core/analysis/chartdata.h"
#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/pricing.h"
#include "core/analysis/scopehint.h"
#include "core/analysis/summary.h"
#include "core/analysis/viewoptions.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/model/hardware.h"
#include "core/model/urls.h"
#include "core/output/evaluationexport.h"
#include "core/output/reports.h"
#include "core/store/storecheck.h"
#include "core/store/storerecover.h"

namespace paretoscope::cli {
namespace {

// The scope options, parsed by the same code as a view (core/analysis/viewoptions.h).
std::optional<Scope> scopeFromArgs(const cli::Args& a, std::string& error)
{
    auto scope = scopeFromOptions(a.options);
    if (!scope) {
        error = scope.error();
        return std::nullopt;
    }
    return std::move(*scope);
}

// --metric total|input|output, total when not given.
bool metricOption(const cli::Args& a, TputMetric& out, std::string& error)
{
    if (auto m = a.value("metric")) {
        auto parsed = parseMetric(*m);
        if (!parsed) {
            error = "--metric must be total, input or output";
            return false;
        }
        out = *parsed;
    }
    return true;
}

// --baseline H, normalised; a scope that names its hardware gets H too, since a ratio needs H's own reading.
bool baselineOption(const cli::Args& a, Scope& scope, std::string& out, std::string& error)
{
    out = normalizedKey(a.value("baseline").value_or(""));
    if (a.has("baseline") && out.empty()) {
        error = "--baseline needs a hardware name";
        return false;
    }
    if (!out.empty() && !scope.hardware.empty()
        && std::find(scope.hardware.begin(), scope.hardware.end(), out) == scope.hardware.end())
        scope.hardware.push_back(out);
    return true;
}

std::string storePathFromArgs(const cli::Args& a)
{
    return a.value("db").value_or(defaultStorePath());
}

} // namespace

int cmdImport(const Invocation& in)
{
    const cli::Args& a = in.args;
    if (a.positional.empty())
        return usageError("import needs at least one file, folder or URL");
    ImportOptions o;
    o.hardware = a.value("hardware").value_or("");
    o.engine = a.value("engine").value_or("");
    o.precision = a.value("precision").value_or("");
    o.model = a.value("model").value_or("");
    o.workload = a.value("workload").value_or("");
    o.specDecoding = a.value("spec").value_or("");
    std::string error;
    if (!intOption(a, "gpus", o.gpus, error) || !intOption(a, "prefill-gpus", o.prefillGpus, error)
        || !intOption(a, "decode-gpus", o.decodeGpus, error) || !intOption(a, "isl", o.isl, error)
        || !intOption(a, "osl", o.osl, error) || !intOption(a, "tp", o.tp, error))
        return usageError(error);
    if (o.gpus > 0 && (o.prefillGpus > 0 || o.decodeGpus > 0))
        return usageError("give either --gpus or --prefill-gpus with --decode-gpus, not both");
    const NewStoreGuard created(a);
    auto store = in.store(&error);
    if (!store) {
        // the contract holds: one JSON line per input, each saying why nothing was imported
        for (const std::string& input : a.positional)
            std::cout << importOutcomeJson(ImportOutcome { redactUrl(input), Error { error } }) << "\n";
        return 1;
    }
    const bool tty = isatty(STDERR_FILENO);
    ProgressFn progress;
    if (tty)
        progress = [](std::uint64_t done, std::uint64_t total) {
            if (total > (64u << 20))
                std::fprintf(stderr, "\r%5.1f%% of %.0f MB", 100.0 * double(done) / double(total), double(total) / 1e6);
            return true;
        };
    bool allOk = true;
    bool anyOk = false;
    for (const std::string& input : a.positional) {
        for (const ImportOutcome& outcome : importPath(*store, input, o, progress)) {
            if (tty)
                std::fprintf(stderr, "\r\033[K");
            allOk = allOk && outcome.result.ok();
            anyOk = anyOk || outcome.result.ok();
            std::cout << importOutcomeJson(outcome) << "\n" << std::flush;
        }
    }
    if (!anyOk) { // nothing stored: a store this import made goes again
        store.reset();
        created.discard();
    }
    return allOk ? 0 : 1;
}

int cmdLadder(const Invocation& in)
{
    const cli::Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "json", "csv", "table" }, format, error))
        return usageError(error);
    auto view = viewFromOptions(a.options);
    if (!view)
        return usageError(view.error());
    LadderRequest& req = view->request;
    const std::string& baseline = view->baseline;
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, req.scope.model))
        return 1;
    FrontierCache cache(*store);
    // accuracy beside the readings where the store holds evaluations; a requirement leaves the groups that fail it
    // out of the readings (docs/evaluations.md)
    const EvaluationIndex evaluations(storedEvaluations(*store, req.scope.model));
    if (!accuracyTaskKnown(evaluations, req.accuracyTask, req.scope.model)
        || !requirementTaskKnown(evaluations, req.accuracy, req.scope.model))
        return 1;
    applyAccuracyRequirement(req, cache.frontiers(req.scope, req.metric), evaluations);
    auto ladders = computeLadder(cache, bundledPricing(), req);
    if (readFailed(*store))
        return 1;
    if (!ladders)
        return usageError(ladders.error());
    if (cache.frontiers(req.scope, req.metric).empty()) // the same frontiers the ladder read: cached
        return emptyScope(*store, req.scope);
    if (const std::string task = ladderAccuracyTask(req, evaluations); !task.empty()) {
        // each reading's accuracy on the evaluated configuration closest to the one it comes from
        const std::vector<GroupFrontier>& frontiers = cache.frontiers(req.scope, req.metric);
        const KnotConfigurations configurations = knotConfigurations(*store, frontiers);
        attachAccuracy(*ladders, evaluations, task, req.scope.asOf, &frontiers, &configurations);
    }
    if (auto covered = baseline.empty() ? ok() : baselineCovered(*ladders, baseline); !covered) {
        std::cerr << "paretoscope-cli: " << covered.error() << "\n";
        return 1;
    }
    if (format != "json") { // the JSON contract stays as it is; CSV and the table add the share of speed of light
        std::vector<GroupKey> groups;
        for (const HardwareLadder& l : *ladders)
            for (const LadderRow& r : l.rows)
                if (r.entry.group)
                    groups.push_back(*r.entry.group);
        attachSpeedOfLight(*ladders, scopeSpeedOfLight(req.scope, groups, req.metric));
    }
    if (format == "json")
        std::cout << ladderJson(*ladders, baseline);
    else if (format == "csv")
        std::cout << ladderCsv(*ladders, baseline);
    else
        std::cout << ladderTable(*ladders, req.metric, baseline, req.energy);
    // the curves a newer, narrower run replaced (--runs latest): said, not hidden (InferenceX-app #1185)
    for (const GroupFrontier& g : cache.frontiers(req.scope, req.metric))
        for (const GroupFrontier::Narrowing& n : g.narrowed)
            std::cerr << "paretoscope-cli: note: " << narrowingNote(g, n) << "\n";
    return 0;
}

int cmdSummary(const Invocation& in)
{
    const cli::Args& a = in.args;
    std::string error;
    auto scope = scopeFromArgs(a, error);
    if (!scope)
        return usageError(error);
    PriceChoice price;
    price.tierKey = a.value("tier").value_or("");
    if (price.tierKey.empty())
        price.tierKey = bundledPricing().defaultTier().key;
    double target = 50;
    if (auto t = a.value("target")) {
        auto v = parseDouble(*t);
        if (!v || *v <= 0)
            return usageError("--target must be a number above zero (tok/s/user), got '" + *t + "'");
        target = *v;
    }
    Reading reading = Reading::Deployable;
    if (auto r = a.value("reading")) {
        auto parsed = parseReading(*r);
        if (!parsed)
            return usageError("--reading must be deployable or frontier, got '" + *r + "'");
        reading = *parsed;
    }
    std::string baseline;
    if (!baselineOption(a, *scope, baseline, error))
        return usageError(error);
    std::optional<AccuracyRequirement> requirement;
    std::string task;
    if (!accuracyOption(a, requirement, error) || !accuracyTaskOption(a, task, error))
        return usageError(error);
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, scope->model))
        return 1;
    ScopeData data = loadScopeData(*store, *scope, TputMetric::Total);
    // the accuracy of each reading's group; a requirement leaves the groups that fail it out, as the explorer's
    // filter does, and the summary says what that cost
    data.evaluations = std::make_shared<const EvaluationIndex>(storedEvaluations(*store, scope->model));
    if (!accuracyTaskKnown(*data.evaluations, task, scope->model)
        || !requirementTaskKnown(*data.evaluations, requirement, scope->model))
        return 1;
    if (requirement)
        requireAccuracy(data, *requirement);
    chooseAccuracyTask(data, task);
    data.knotConfigurations = std::make_shared<const KnotConfigurations>(knotConfigurations(*store, data.frontiers));
    auto report
        = summaryAt(data, summaryFacts(*store, data), bundledPricing(), target, price, a.has("hide-sparse"), reading);
    if (readFailed(*store))
        return 1;
    if (!report)
        return usageError(report.error());
    report->baseline = baseline;
    std::vector<HardwareLadder> names;
    for (const HardwareSummary& h : report->hardware)
        names.push_back({ h.hardware, {} });
    if (auto covered = baseline.empty() ? ok() : baselineCovered(names, baseline); !covered) {
        std::cerr << "paretoscope-cli: " << covered.error() << "\n";
        return 1;
    }
    std::cout << summaryMarkdown(*report);
    return 0;
}

int cmdFrontier(const Invocation& in)
{
    const cli::Args& a = in.args;
    std::string error, format;
    auto scope = scopeFromArgs(a, error);
    if (!scope || !formatOption(a, { "json", "csv" }, format, error))
        return usageError(error);
    TputMetric metric = TputMetric::Total;
    if (!metricOption(a, metric, error))
        return usageError(error);
    const auto x = parseChartX(a.value("x").value_or("interactivity"));
    if (!x)
        return usageError("--x must be interactivity, e2el, ttft or ttft-p99, got '" + *a.value("x") + "'");
    std::optional<AccuracyRequirement> requirement;
    if (!accuracyOption(a, requirement, error))
        return usageError(error);
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, scope->model))
        return 1;
    std::vector<FrontierReport> report;
    if (requirement) { // the groups that meet it: the scope's data judged as the explorer's filter judges it
        ScopeData data = loadScopeData(*store, *scope, metric);
        data.evaluations = std::make_shared<const EvaluationIndex>(storedEvaluations(*store, scope->model));
        if (!requirementTaskKnown(*data.evaluations, requirement, scope->model))
            return 1;
        requireAccuracy(data, *requirement);
        std::cerr << "paretoscope-cli: " << data.accuracyFilter->words() << "\n";
        if (data.frontiers.empty() && !data.accuracyFilter->verdicts.empty())
            return 1; // the scope has runs: none of its groups meets the requirement, as said
        report = frontierReport(*store, *x == ChartX::Interactivity ? data.frontiers : xFrontiers(data, *x));
    } else {
        FrontierCache cache(*store);
        // a latency on x: the Pareto set of (1 / latency, tok/s/GPU) of the selected runs, as the chart draws it
        report = *x == ChartX::Interactivity
            ? frontierReport(*store, cache.frontiers(*scope, metric))
            : frontierReport(*store, xFrontiers(loadScopeData(*store, *scope, metric), *x));
    }
    if (readFailed(*store))
        return 1;
    if (report.empty())
        return emptyScope(*store, *scope);
    std::cout << (format == "json" ? frontierJson(report) : frontierCsv(report));
    return 0;
}

int cmdSpeedOfLight(const Invocation& in)
{
    const cli::Args& a = in.args;
    std::string error, format;
    auto scope = scopeFromArgs(a, error);
    if (!scope || !formatOption(a, { "json" }, format, error))
        return usageError(error);
    TputMetric metric = TputMetric::Total;
    if (!metricOption(a, metric, error))
        return usageError(error);
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, scope->model))
        return 1;
    // the lines the chart draws: one per hardware and precision of the scope's frontiers
    FrontierCache cache(*store);
    std::vector<GroupKey> groups;
    for (const GroupFrontier& g : cache.frontiers(*scope, metric))
        groups.push_back(g.key);
    if (readFailed(*store))
        return 1;
    std::vector<std::string> missing;
    std::cout << speedOfLightJson(scopeSpeedOfLight(*scope, groups, metric, &missing), missing) << "\n";
    return 0;
}

int cmdExport(const Invocation& in)
{
    const cli::Args& a = in.args;
    std::string error, format;
    if (a.has("evaluations")) { // the model's evaluations, whatever the sequence
        std::string model = a.value("model").value_or("");
        if (model.empty())
            return usageError("--model is required");
        if (!formatOption(a, { "csv", "json" }, format, error))
            return usageError(error);
        auto store = in.store();
        if (!store)
            return 1;
        if (!resolveModel(*store, model))
            return 1;
        const auto evaluations = storedEvaluations(*store, model);
        if (readFailed(*store))
            return 1;
        std::cout << (format == "csv" ? evaluationsCsv(evaluations) : evaluationsJson(evaluations));
        return 0;
    }
    auto scope = scopeFromArgs(a, error);
    if (!scope || !formatOption(a, { "csv", "json" }, format, error))
        return usageError(error);
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, scope->model))
        return 1;
    std::vector<long long> ids;
    for (const Series& s : store->series(*scope))
        ids.push_back(s.id);
    auto runs = store->runsOfSeries(ids, *scope);
    if (readFailed(*store))
        return 1;
    std::cout << (format == "csv" ? runsCsv(runs) : runsJson(runs));
    return 0;
}

int cmdTiers(const Invocation& in)
{
    const cli::Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "json", "table" }, format, error))
        return usageError(error);
    std::cout << (format == "json" ? tiersJson(bundledPricing()) : tiersTable(bundledPricing()));
    return 0;
}

int cmdScopes(const Invocation& in)
{
    const cli::Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "table", "json" }, format, error))
        return usageError(error);
    auto store = in.store();
    if (!store)
        return 1;
    auto scopes = store->scopes();
    if (readFailed(*store))
        return 1;
    std::cout << (format == "json" ? scopesJson(scopes) : scopesTable(scopes));
    return 0;
}

int cmdCheck(const Invocation& in)
{
    const cli::Args& a = in.args;
    auto report = checkStore(storePathFromArgs(a));
    if (!report) {
        std::cerr << "paretoscope-cli: " << report.error() << "\n";
        return 1;
    }
    std::cout << report->text();
    return report->ok() ? 0 : 1;
}

int cmdRecover(const Invocation& in)
{
    const cli::Args& a = in.args;
    auto to = a.value("to");
    if (!to)
        return usageError("recover needs --to NEW.sqlite, the new store to write");
    const std::string from = storePathFromArgs(a);
    auto report = recoverStore(from, *to);
    if (!report) {
        std::cerr << "paretoscope-cli: " << report.error() << "\n";
        return 1;
    }
    std::cout << report->text(from, *to);
    return 0;
}

int cmdSeed(const Invocation& in)
{
    auto store = in.store();
    if (!store)
        return 1;
    ImportOutcome outcome { std::string(kBundledDatasetSource), importBundledDataset(*store) };
    std::cout << importOutcomeJson(outcome) << "\n";
    return outcome.result ? 0 : 1;
}

} // namespace paretoscope::cli
