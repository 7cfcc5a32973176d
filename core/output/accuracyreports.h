#pragma once

#include <string>
#include <vector>

#include "core/analysis/accuracy.h"
#include "core/analysis/precisiontradeoff.h"

namespace paretoscope {

/// The CLI's `accuracy`: per group, the accuracy on the task or "not evaluated", as JSON (one array), CSV and a table.
std::string accuracyJson(const std::vector<GroupAccuracyRow>& rows, const std::string& task);
std::string accuracyCsv(const std::vector<GroupAccuracyRow>& rows, const std::string& task);
std::string accuracyTable(const std::vector<GroupAccuracyRow>& rows, const std::string& task);

/// The CLI's `precision`: per hardware, each precision's reading at the target with its accuracy, and FP4 against
/// FP8 (ratios, accuracy difference and its error, within error).
std::string precisionJson(const std::vector<PrecisionTradeoff>& t, const std::string& task, double target);
std::string precisionCsv(const std::vector<PrecisionTradeoff>& t, const std::string& task, double target);
std::string precisionTable(const std::vector<PrecisionTradeoff>& t, const std::string& task, double target);
/// The table's cells, its header first: one row per hardware and precision (the explorer's Precision tab shows them).
std::vector<std::vector<std::string>> precisionRows(
    const std::vector<PrecisionTradeoff>& t, const std::string& task, double target);

} // namespace paretoscope
