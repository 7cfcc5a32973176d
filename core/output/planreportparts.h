#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/plan.h"

namespace paretoscope {

/// What the reports share: a plan hardware in JSON, its status and configuration in words, aligned tables.

/// A hardware's plan as the plan JSON has it (docs/plan.md), at the plan's target, demand and metric.
nlohmann::ordered_json planHardwareJson(const HardwarePlan& h, const Plan& plan);
/// How the reading was taken where there is one ("measured", "interpolated 16-64", "sparse 4-64", "faster 58.2"),
/// else the status.
std::string planStatusCell(const HardwarePlan& h);
/// "tp8 ep8 dpa c64 @40" or "4P+8D c256 @12.5"; "-" for none.
std::string planConfigText(const std::optional<PlanConfig>& c);
/// A reading's accuracy as the ladder and plan JSON have it: {"task","status","metric","value","standard_error",
/// "questions","date"}, or {"task","status": "not evaluated"}.
nlohmann::ordered_json accuracyJson(const std::string& task, const std::optional<GroupAccuracy>& accuracy);
/// Rows as aligned columns; the columns named in `right` are right-aligned below the header.
std::string alignedRows(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right);

} // namespace paretoscope
