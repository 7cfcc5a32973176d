#pragma once

#include <string>

#include "core/analysis/plan.h"
#include "core/analysis/planbudget.h"
#include "core/analysis/viewoptions.h"

namespace paretoscope {

/// What a plan line asks besides a demand plan: a budget (in place of the demand) or a mix (--mix, in place of the
/// scope's lengths).
struct PlanCommandMode {
    std::optional<BudgetKind> budget;
    double amount = 0;
    std::string mix;
};

/// A plan question as a `paretoscope-cli plan ...` line: the view's scope and filters (as viewCommand writes them,
/// its ladder-only options left out), --db where given, the demand and unit, the target, the headroom where not the
/// default, and the cost model: --tco FILE with a TCO model (tcoPath "default" for the shipped one), else the
/// request's --tier or --price. Words are quoted for a POSIX shell where needed.
std::string planCommand(const ViewOptions& view, const PlanRequest& plan, const std::string& tcoPath,
    const std::string& dbPath, const PlanCommandMode& mode = {});

} // namespace paretoscope
