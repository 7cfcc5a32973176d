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
/// Speculative decoding as a planner reads it: "mtp" -> "MTP"; empty where none is used ("" or "none").
std::string specDecodingDisplayName(const std::string& specDecoding);
/// The precision with the speculative decoding that goes with it: "FP8 · MTP", or "FP8" without.
std::string precisionWithSpecDecoding(const GroupKey& key);
/// A group in words: "B300 · vLLM · FP4", speculative decoding added when used ("· MTP"); without the hardware
/// ("vLLM · FP4") where a column already names it.
std::string groupDisplayName(const GroupKey& key, bool withHardware = true);

} // namespace paretoscope
