#pragma once

#include <string>
#include <vector>

#include "core/analysis/plan.h"

namespace paretoscope {

/// What a plan report says besides the plans: the demand as the user gave it and the headroom.
struct PlanReportContext {
    double demand = 0;
    DemandUnit unit = DemandUnit::TokPerS;
    double headroom = 0.25;
};

/// The plan as a JSON object keyed by hardware (the CLI contract, docs/plan.md). With a sweep (the plans at other
/// targets, as costOfSpeed gives them), each hardware adds "sweep": its plan at each of those targets.
std::string planJson(const Plan& plan, const std::vector<Plan>& sweep = {});
/// The plan as CSV, a row per hardware ("kind" plan), then a row per hardware and sweep target ("kind" sweep).
std::string planCsv(const Plan& plan, const std::vector<Plan>& sweep = {});
/// The plan as aligned text tables for a terminal: a line on the demand, a row per hardware (the cheapest starred),
/// the notes, and with a sweep the cost of speed ($/month, GPUs and MW per target).
std::string planTable(const Plan& plan, const PlanReportContext& context, const std::vector<Plan>& sweep = {});

} // namespace paretoscope
