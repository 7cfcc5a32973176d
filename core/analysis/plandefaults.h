#pragma once

#include "core/analysis/plan.h"
#include "core/analysis/planbudget.h"

namespace paretoscope {

/// What a plan starts with where nobody said otherwise: the window's Plan tab on its first start (the CLI asks for a
/// demand or a budget, and takes the headroom of PlanRequest, the same 25%).
struct PlanDefaults {
    double demand = 1e6; ///< in `unit`
    DemandUnit unit = DemandUnit::TokPerS;
    double headroom = PlanRequest {}.headroom;
    double usdPerGpuHour = 2.0; ///< the custom price, as the readout's custom tier starts
    double budget = 10; ///< in `budgetKind`
    BudgetKind budgetKind = BudgetKind::Megawatts;
};

} // namespace paretoscope
