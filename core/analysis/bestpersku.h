#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/analysis/ladder.h"

namespace paretoscope {

/// The physical hardware a hardware name stands for: the name before any "-" ("h100-dgxc" -> "h100").
std::string physicalHardware(const std::string& hardware);

/// The InferenceX site's "best per SKU" (docs/explorer.md, Chart): per physical hardware, the one of its
/// frontiers (engines, precisions, speculative decoding) with the highest mean tok/s/GPU at 9 evenly spaced
/// interactivities over the range all of that hardware's frontiers share; where they share none, the one with the
/// highest measured point; ties to the smaller group key. It picks a frontier, not an envelope. Indices into groups,
/// one per physical hardware, in the order of the groups.
std::vector<std::size_t> bestPerHardware(const std::vector<GroupFrontier>& groups);

} // namespace paretoscope
