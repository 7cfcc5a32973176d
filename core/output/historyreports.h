#pragma once

#include <string>
#include <vector>

#include "core/analysis/history.h"

namespace paretoscope {

/// The history as a JSON object keyed by hardware: per run date {"date","status","tput_per_gpu","engine",
/// "precision","spec_decoding","cost_per_mtok","tput_low","tput_high"}.
std::string historyJson(const std::vector<HardwareHistory>& history);
/// The history as CSV, a row per hardware and date, units in the header.
std::string historyCsv(const std::vector<HardwareHistory>& history);
/// The history as an aligned text table; an engine or precision that changes from the date before is marked "*".
std::string historyTable(const std::vector<HardwareHistory>& history, TputMetric metric);

/// The readings as of two dates: a JSON object keyed by hardware, per target {"target","before":{reading},
/// "after":{reading},"change_pct","within_spread"}, a reading as in historyJson without its date.
std::string diffJson(const std::vector<HardwareDiff>& diff, const std::string& before, const std::string& after);
/// The same as CSV, a row per hardware and target.
std::string diffCsv(const std::vector<HardwareDiff>& diff, const std::string& before, const std::string& after);
/// The same as a table; a change within the spread of reruns says so.
std::string diffTable(const std::vector<HardwareDiff>& diff, const std::string& before, const std::string& after);

} // namespace paretoscope
