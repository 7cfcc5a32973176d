#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/clicommon.h"
#include "core/analysis/plan.h"

namespace paretoscope::cli {

/// The options `plan` accepts (name -> takes a value).
std::map<std::string, bool> planOptions();
/// The demand plan's request from `plan`'s options (scope, demand, unit, target, headroom, limits, --sweep-targets
/// into `sweep`), without the cost model; false with the reason in `error`.
bool planRequestFromArgs(const Args& a, PlanRequest& req, std::vector<double>& sweep, std::string& error);
/// The cost model of `plan`'s options (--tier, --price, --tco FILE) into `req`: 0, or the exit code after saying why.
int planCostFromArgs(const Args& a, PlanRequest& req);
/// `plan`: per hardware, the GPUs, nodes, power and money a demand needs at a target interactivity (docs/plan.md).
int cmdPlan(const Invocation& in);

} // namespace paretoscope::cli
