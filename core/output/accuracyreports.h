#pragma once

#include <string>
#include <vector>

#include "core/analysis/accuracy.h"

namespace paretoscope {

/// The CLI's `accuracy`: per group, the accuracy on the task or "not evaluated", as JSON (one array), CSV and a table.
std::string accuracyJson(const std::vector<GroupAccuracyRow>& rows, const std::string& task);
std::string accuracyCsv(const std::vector<GroupAccuracyRow>& rows, const std::string& task);
std::string accuracyTable(const std::vector<GroupAccuracyRow>& rows, const std::string& task);

} // namespace paretoscope
