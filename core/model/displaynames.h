#pragma once
// Names as a planner reads them, the one place the explorer, the CLI's reports and the summary take them from.

#include <string>

#include "core/model/scope.h"

namespace paretoscope {

/// "b300" -> "B300"; an emulator's results say so: "b300-sim" -> "B300 (simulated)", "sim-fixed" -> "Emulator (fixed
/// timing, simulated)".
std::string hardwareDisplayName(const std::string& hardware);
/// "fp4" -> "FP4".
std::string precisionDisplayName(const std::string& precision);
/// A group in words: "B300 · vLLM · FP4", speculative decoding added when used ("· MTP"); without the hardware
/// ("vLLM · FP4") where a column already names it.
std::string groupDisplayName(const GroupKey& key, bool withHardware = true);

} // namespace paretoscope
