#pragma once

#include <string>

#include "core/analysis/plan.h"
#include "core/analysis/viewoptions.h"

namespace paretoscope {

/// A plan question as a `paretoscope-cli plan ...` line: the view's scope and filters (as viewCommand writes them,
/// its ladder-only options left out), --db where given, the demand and unit, the target, the headroom where not the
/// default, and the cost model: --tco FILE with a TCO model (tcoPath "default" for the shipped one), else the
/// request's --tier or --price. Words are quoted for a POSIX shell where needed.
std::string planCommand(
    const ViewOptions& view, const PlanRequest& plan, const std::string& tcoPath, const std::string& dbPath);

} // namespace paretoscope
