#pragma once

#include <string>

#include "core/analysis/planbudget.h"
#include "core/analysis/plancap.h"

namespace paretoscope {

/// A budget plan as JSON keyed by hardware: each hardware's plan fields (as `plan` writes them, for the budget's
/// deployment) and "budget": what it buys and serves (docs/plan.md).
std::string budgetJson(const BudgetPlan& plan);
/// A row per hardware.
std::string budgetCsv(const BudgetPlan& plan);
/// Aligned text: a line on the budget, a row per hardware (the one serving the most starred), why the others serve
/// nothing.
std::string budgetTable(const BudgetPlan& plan, double headroom);

/// A cost cap as JSON keyed by hardware: the plan at its highest interactivity within the cap (as `plan` writes it)
/// and "cap": that interactivity, the cap, whether it is the fastest, why there is none.
std::string capJson(const CapPlan& plan);
std::string capCsv(const CapPlan& plan);
std::string capTable(const CapPlan& plan);

} // namespace paretoscope
