// `plan`: parses the capacity plan's options (its SLO limits too, here rather than in the shared scope options, so
// that the other commands' --ttft-max can land beside it) and prints core's plan.
#include "app/cliplan.h"

#include <iostream>

#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/plan.h"
#include "core/analysis/planbudget.h"
#include "core/analysis/plancap.h"
#include "core/analysis/planmix.h"
#include "core/analysis/scopeaccuracy.h"
#include "core/analysis/viewoptions.h"
#include "core/model/datafiles.h"
#include "core/model/hardware.h"
#include "core/model/outsidefile.h"
#include "core/output/planbudgetreports.h"
#include "core/output/planmixreports.h"
#include "core/output/planreports.h"

namespace paretoscope::cli {
namespace {

// A number above zero (or >= 0 with allowZero) of an option, when given.
bool numberOption(
    const Args& a, const std::string& name, std::optional<double>& out, std::string& error, bool allowZero = false)
{
    auto text = a.value(name);
    if (!text)
        return true;
    auto v = parseDouble(*text);
    if (!v || (allowZero ? *v < 0 : *v <= 0)) {
        error = "--" + name + " must be a number " + (allowZero ? ">= 0" : "above zero") + ", got '" + *text + "'";
        return false;
    }
    out = *v;
    return true;
}

// --ttft-max S [--ttft-stat median|p99] [--tpot-max S] into the scope.
bool sloOptions(const Args& a, Scope& scope, std::string& error)
{
    if (!numberOption(a, "ttft-max", scope.ttftMax, error) || !numberOption(a, "tpot-max", scope.tpotMax, error))
        return false;
    if (auto stat = a.value("ttft-stat")) {
        if (*stat != "median" && *stat != "p99") {
            error = "--ttft-stat must be median or p99, got '" + *stat + "'";
            return false;
        }
        if (!scope.ttftMax) {
            error = "--ttft-stat needs --ttft-max";
            return false;
        }
        scope.ttftStat = *stat == "p99" ? LatencyStat::P99 : LatencyStat::Median;
    }
    return true;
}

// --gpus-per-node H=N,...
bool gpusPerNodeOption(const Args& a, PlanRequest& req, std::string& error)
{
    for (const std::string& item : a.list("gpus-per-node")) {
        const auto eq = item.find('=');
        // 0 for none: a read of the optional itself after the test trips GCC 12's maybe-uninitialized when inlined
        const int n = eq == std::string::npos ? 0 : parseInt(item.substr(eq + 1)).value_or(0);
        const std::string hw = eq == std::string::npos ? "" : normalizedKey(item.substr(0, eq));
        if (hw.empty() || n <= 0) {
            error = "--gpus-per-node must be HARDWARE=N with N a whole number above zero (e.g. gb200=72), got '" + item
                + "'";
            return false;
        }
        req.gpusPerNode[hw] = n;
    }
    return true;
}

// --tier NAME | --price USD | --tco FILE; a TCO file that cannot be read or is not valid says why (exit 1).
int costOptions(const Args& a, PlanRequest& req)
{
    if (int(a.has("tier")) + int(a.has("price")) + int(a.has("tco")) > 1)
        return usageError("give one of --tier, --price and --tco");
    req.price.tierKey = a.value("tier").value_or("");
    std::string error;
    if (!numberOption(a, "price", req.price.customUsdPerGpuHour, error))
        return usageError(error);
    if (auto path = a.value("tco"); path && *path == "default") {
        req.tco = bundledTco(); // the shipped example, resources/tco_default.json
    } else if (path) {
        *path = findDataFile(*path); // resources/tco_default.json is found where it is installed
        auto text = readRegularFile(*path, limits::kSmallJson);
        if (!text) {
            std::cerr << "paretoscope-cli: " << text.error() << "\n";
            return 1;
        }
        auto model = parseTco(*text, *path);
        if (!model) {
            std::cerr << "paretoscope-cli: " << model.error() << "\n";
            return 1;
        }
        req.tco = std::move(*model);
    }
    return 0;
}

// Everything but the cost model; an error message in `error`.
bool planRequest(const Args& a, PlanRequest& req, std::vector<double>& sweep, std::string& error)
{
    const bool mix = a.has("mix") || a.has("mix-file");
    if (mix && (a.has("isl") || a.has("osl") || a.has("workload"))) {
        error = "a mix gives each part's lengths: leave out --isl, --osl and --workload";
        return false;
    }
    OptionMap options = a.options;
    if (mix) // the parts' lengths take the place of the scope's
        options["isl"] = options["osl"] = { "1" };
    auto scope = scopeFromOptions(options);
    if (!scope) {
        error = scope.error();
        return false;
    }
    req.scope = std::move(*scope);
    if (mix)
        req.scope.isl = req.scope.osl = std::nullopt;
    req.hideSparse = a.has("hide-sparse");
    req.exactTarget = a.has("exact-target");
    if (!sloOptions(a, req.scope, error) || !gpusPerNodeOption(a, req, error))
        return false;
    std::optional<double> demand, target, headroom;
    if (!numberOption(a, "demand", demand, error) || !numberOption(a, "target", target, error)
        || !numberOption(a, "headroom", headroom, error, true))
        return false;
    const bool budget = a.has("budget-mw") || a.has("budget-usd-month");
    auto unit = parseDemandUnit(a.value("unit").value_or(budget && !a.has("unit") ? "tok/s" : ""));
    if (budget && demand) {
        error = "a budget replaces the demand: give --budget-mw or --budget-usd-month, or --demand";
        return false;
    }
    if ((!demand && !budget) || !target || !unit) {
        error = !demand && !budget ? "plan needs --demand VALUE (or --budget-mw / --budget-usd-month)"
            : !target              ? "plan needs --target X (tok/s/user)"
                                   : "--unit must be tok/s, output-tok/s, tok/day, req/s or users";
        return false;
    }
    req.demand = demand.value_or(0);
    req.target = *target;
    req.unit = *unit;
    req.headroom = headroom.value_or(req.headroom);
    for (const std::string& t : a.list("sweep-targets")) {
        auto v = parseDouble(t);
        if (!v || *v <= 0) {
            error = "--sweep-targets must be numbers above zero (tok/s/user), got '" + t + "'";
            return false;
        }
        sweep.push_back(*v);
    }
    return true;
}

} // namespace

bool planRequestFromArgs(const Args& a, PlanRequest& req, std::vector<double>& sweep, std::string& error)
{
    return planRequest(a, req, sweep, error);
}

int planCostFromArgs(const Args& a, PlanRequest& req)
{
    return costOptions(a, req);
}

std::map<std::string, bool> planOptions()
{
    return { { "db", true }, { "model", true }, { "isl", true }, { "osl", true }, { "workload", true },
        { "hardware", true }, { "engine", true }, { "precision", true }, { "spec", true }, { "format", true },
        { "from", true }, { "to", true }, { "include-marked", false }, { "exclude-flagged", false }, { "runs", true },
        { "as-of", true }, { "demand", true }, { "unit", true }, { "target", true }, { "ttft-max", true },
        { "ttft-stat", true }, { "tpot-max", true }, { "headroom", true }, { "gpus-per-node", true }, { "tier", true },
        { "price", true }, { "tco", true }, { "sweep-targets", true }, { "hide-sparse", false },
        { "exact-target", false }, { "budget-mw", true }, { "budget-usd-month", true }, { "max-cost-per-mtok", true },
        { "mix", true }, { "mix-file", true }, { "min-accuracy", true }, { "allow-unevaluated", false },
        { "accuracy-task", true } };
}

namespace {

// The mode a plan line asks for: a demand plan, a budget, a cost cap or a mix (one at a time).
struct PlanMode {
    std::optional<BudgetKind> budget;
    double amount = 0; ///< the budget, or the cap
    bool cap = false;
    std::string mixSpec, mixFile;
};

bool planMode(const Args& a, PlanMode& mode, std::string& error)
{
    const int given = int(a.has("budget-mw")) + int(a.has("budget-usd-month")) + int(a.has("max-cost-per-mtok"))
        + int(a.has("mix")) + int(a.has("mix-file"));
    if (given > 1) {
        error = "give one of --budget-mw, --budget-usd-month, --max-cost-per-mtok, --mix and --mix-file";
        return false;
    }
    std::optional<double> v;
    for (const auto& [name, kind] :
        { std::pair { "budget-mw", BudgetKind::Megawatts }, std::pair { "budget-usd-month", BudgetKind::UsdPerMonth } })
        if (a.has(name)) {
            if (!numberOption(a, name, v, error))
                return false;
            mode.budget = kind;
            mode.amount = *v;
        }
    if (a.has("max-cost-per-mtok")) {
        if (!numberOption(a, "max-cost-per-mtok", v, error))
            return false;
        mode.cap = true;
        mode.amount = *v;
    }
    mode.mixSpec = a.value("mix").value_or("");
    mode.mixFile = a.value("mix-file").value_or("");
    if (given == 1 && a.has("sweep-targets")) {
        error = "--sweep-targets is for a demand plan, not with a budget, a cost cap or a mix";
        return false;
    }
    return true;
}

// The mix's parts, from --mix or --mix-file; 0, or the exit code.
int mixParts(const PlanMode& mode, const Scope& base, std::vector<MixPart>& parts)
{
    if (!mode.mixSpec.empty()) {
        auto p = parseMixSpec(mode.mixSpec, base);
        if (!p)
            return usageError(p.error());
        parts = std::move(*p);
        return 0;
    }
    auto text = readRegularFile(mode.mixFile, limits::kSmallJson);
    if (!text) {
        std::cerr << "paretoscope-cli: " << text.error() << "\n";
        return 1;
    }
    auto p = parseMixFile(*text, mode.mixFile, base);
    if (!p) {
        std::cerr << "paretoscope-cli: " << p.error() << "\n";
        return 1;
    }
    parts = std::move(*p);
    return 0;
}

// Plans only on the groups that meet the requirement (docs/evaluations.md); says on stderr what it left out.
bool requireAccuracyOf(RunStore& store, PlanFrontiers& data, const AccuracyRequirement& requirement)
{
    const EvaluationIndex evaluations(storedEvaluations(store, data.scope.model));
    if (readFailed(store) || !requirementTaskKnown(evaluations, requirement, data.scope.model))
        return false;
    std::cerr << "paretoscope-cli: " << requireAccuracy(data, evaluations, requirement).words() << "\n";
    return true;
}

int printMix(RunStore& store, const PlanRequest& req, const PlanMode& mode, const std::string& format,
    const std::optional<AccuracyRequirement>& accuracy)
{
    std::vector<MixPart> parts;
    if (int code = mixParts(mode, req.scope, parts))
        return code;
    std::vector<PlanFrontiers> frontiers;
    frontiers.reserve(parts.size());
    for (MixPart& p : parts) {
        if (!resolveModel(store, p.scope.model))
            return 1;
        frontiers.push_back(loadPlanFrontiers(store, p.scope));
        if (readFailed(store))
            return 1;
        if (frontiers.back().empty())
            return emptyScope(store, p.scope);
        if (accuracy && !requireAccuracyOf(store, frontiers.back(), *accuracy))
            return 1;
    }
    std::vector<const PlanFrontiers*> data;
    data.reserve(frontiers.size());
    for (const PlanFrontiers& f : frontiers)
        data.push_back(&f);
    auto mix = computeMixPlan(data, req, parts);
    if (!mix)
        return usageError(mix.error());
    std::cout << (format == "json" ? mixJson(*mix) : format == "csv" ? mixCsv(*mix) : mixTable(*mix));
    return 0;
}

} // namespace

int cmdPlan(const Invocation& in)
{
    const Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "json", "csv", "table" }, format, error))
        return usageError(error);
    PlanRequest req;
    PlanMode mode;
    std::vector<double> targets;
    std::optional<AccuracyRequirement> accuracy;
    std::string task;
    if (!planMode(a, mode, error) || !planRequest(a, req, targets, error) || !accuracyOption(a, accuracy, error)
        || !accuracyTaskOption(a, task, error))
        return usageError(error);
    if (int code = costOptions(a, req))
        return code;
    auto store = in.store();
    if (!store)
        return 1;
    if (!mode.mixSpec.empty() || !mode.mixFile.empty())
        return printMix(*store, req, mode, format, accuracy);
    if (!resolveModel(*store, req.scope.model))
        return 1;
    PlanFrontiers data = loadPlanFrontiers(*store, req.scope);
    if (readFailed(*store))
        return 1;
    if (data.empty())
        return emptyScope(*store, req.scope);
    if (accuracy && !requireAccuracyOf(*store, data, *accuracy))
        return 1;
    if (mode.budget) {
        auto budget = computeBudgetPlan(data, req, *mode.budget, mode.amount);
        if (!budget)
            return usageError(budget.error());
        std::cout << (format == "json" ? budgetJson(*budget)
                : format == "csv"      ? budgetCsv(*budget)
                                       : budgetTable(*budget, req.headroom));
        return 0;
    }
    if (mode.cap) {
        auto cap = computeCostCap(data, req, mode.amount);
        if (!cap)
            return usageError(cap.error());
        std::cout << (format == "json" ? capJson(*cap) : format == "csv" ? capCsv(*cap) : capTable(*cap));
        return 0;
    }
    auto plan = computePlan(data, req);
    if (!plan)
        return usageError(plan.error());
    // the accuracy of the group each hardware is sized on, where the store holds evaluations of the model
    if (const EvaluationIndex evaluations(storedEvaluations(*store, data.scope.model));
        !evaluations.empty() || !task.empty()) {
        if (!accuracyTaskKnown(evaluations, task, data.scope.model))
            return 1;
        LadderRequest asked;
        asked.accuracy = accuracy;
        asked.accuracyTask = task;
        attachAccuracy(*plan, evaluations, ladderAccuracyTask(asked, evaluations), data.scope.asOf);
    }
    auto sweep = costOfSpeed(data, req, targets);
    if (!sweep)
        return usageError(sweep.error());
    if (format == "json")
        std::cout << planJson(*plan, *sweep);
    else if (format == "csv")
        std::cout << planCsv(*plan, *sweep);
    else
        std::cout << planTable(*plan, PlanReportContext { req.demand, req.unit, req.headroom }, *sweep);
    return 0;
}

} // namespace paretoscope::cli
