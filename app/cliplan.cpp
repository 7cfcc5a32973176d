// `plan`: parses the capacity plan's options (its SLO limits too, here rather than in the shared scope options, so
// that the other commands' --ttft-max can land beside it) and prints core's plan.
#include "app/cliplan.h"

#include <iostream>

#include "core/analysis/plan.h"
#include "core/analysis/viewoptions.h"
#include "core/model/datafiles.h"
#include "core/model/hardware.h"
#include "core/model/outsidefile.h"
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
        auto n = eq == std::string::npos ? std::nullopt : parseInt(item.substr(eq + 1));
        const std::string hw = eq == std::string::npos ? "" : normalizedKey(item.substr(0, eq));
        if (hw.empty() || !n || *n <= 0) {
            error = "--gpus-per-node must be HARDWARE=N with N a whole number above zero (e.g. gb200=72), got '" + item
                + "'";
            return false;
        }
        req.gpusPerNode[hw] = *n;
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
    auto scope = scopeFromOptions(a.options);
    if (!scope) {
        error = scope.error();
        return false;
    }
    req.scope = std::move(*scope);
    req.hideSparse = a.has("hide-sparse");
    req.exactTarget = a.has("exact-target");
    if (!sloOptions(a, req.scope, error) || !gpusPerNodeOption(a, req, error))
        return false;
    std::optional<double> demand, target, headroom;
    if (!numberOption(a, "demand", demand, error) || !numberOption(a, "target", target, error)
        || !numberOption(a, "headroom", headroom, error, true))
        return false;
    auto unit = parseDemandUnit(a.value("unit").value_or(""));
    if (!demand || !target || !unit) {
        error = !demand ? "plan needs --demand VALUE"
            : !target   ? "plan needs --target X (tok/s/user)"
                        : "--unit must be tok/s, output-tok/s, tok/day, req/s or users";
        return false;
    }
    req.demand = *demand;
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

std::map<std::string, bool> planOptions()
{
    return { { "db", true }, { "model", true }, { "isl", true }, { "osl", true }, { "workload", true },
        { "hardware", true }, { "engine", true }, { "precision", true }, { "spec", true }, { "format", true },
        { "from", true }, { "to", true }, { "include-marked", false }, { "exclude-flagged", false }, { "runs", true },
        { "as-of", true }, { "demand", true }, { "unit", true }, { "target", true }, { "ttft-max", true },
        { "ttft-stat", true }, { "tpot-max", true }, { "headroom", true }, { "gpus-per-node", true }, { "tier", true },
        { "price", true }, { "tco", true }, { "sweep-targets", true }, { "hide-sparse", false },
        { "exact-target", false } };
}

int cmdPlan(const Invocation& in)
{
    const Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "json", "csv", "table" }, format, error))
        return usageError(error);
    PlanRequest req;
    std::vector<double> targets;
    if (!planRequest(a, req, targets, error))
        return usageError(error);
    if (int code = costOptions(a, req))
        return code;
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, req.scope.model))
        return 1;
    const PlanFrontiers data = loadPlanFrontiers(*store, req.scope);
    if (readFailed(*store))
        return 1;
    if (data.empty())
        return emptyScope(*store, req.scope);
    auto plan = computePlan(data, req);
    if (!plan)
        return usageError(plan.error());
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
