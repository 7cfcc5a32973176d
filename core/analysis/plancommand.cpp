#include "core/analysis/plancommand.h"

#include "core/analysis/numberformat.h"

namespace paretoscope {

std::string planCommand(const ViewOptions& view, const PlanRequest& plan, const std::string& tcoPath,
    const std::string& dbPath, const PlanCommandMode& mode)
{
    // the scope and its filters as the ladder's line has them; what only a ladder reads is left at its default
    ViewOptions scopeOnly;
    scopeOnly.request.scope = view.request.scope;
    scopeOnly.request.hideSparse = plan.hideSparse;
    if (!mode.mix.empty()) { // the parts give the lengths
        scopeOnly.request.scope.isl = scopeOnly.request.scope.osl = std::nullopt;
        scopeOnly.request.scope.workload.clear();
    }
    std::string out = viewCommand(scopeOnly);
    const std::string ladder = "paretoscope-cli ladder";
    out.replace(0, ladder.size(), "paretoscope-cli plan");
    auto add
        = [&out](const std::string& name, const std::string& value) { out += " --" + name + " " + shellQuote(value); };
    if (!dbPath.empty())
        add("db", dbPath);
    if (mode.budget)
        add(*mode.budget == BudgetKind::Megawatts ? "budget-mw" : "budget-usd-month", exactNumber(mode.amount));
    else
        add("demand", exactNumber(plan.demand));
    if (!mode.mix.empty())
        add("mix", mode.mix);
    add("unit", std::string(demandUnitName(plan.unit)));
    add("target", exactNumber(plan.target));
    if (plan.headroom != PlanRequest {}.headroom)
        add("headroom", exactNumber(plan.headroom));
    for (const auto& [hw, n] : plan.gpusPerNode)
        add("gpus-per-node", hw + "=" + std::to_string(n));
    if (plan.exactTarget)
        out += " --exact-target";
    if (plan.tco)
        add("tco", tcoPath.empty() ? std::string("default") : tcoPath);
    else if (plan.price.customUsdPerGpuHour)
        add("price", exactNumber(*plan.price.customUsdPerGpuHour));
    else if (!plan.price.tierKey.empty())
        add("tier", plan.price.tierKey);
    return out;
}

} // namespace paretoscope
