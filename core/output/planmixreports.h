#pragma once

#include <string>

#include "core/analysis/planmix.h"

namespace paretoscope {

/// A mix plan as JSON: "parts" (each part's scope, share, target and its plan keyed by hardware, as `plan` writes
/// it), "hardware" (per hardware the parts summed, the cheapest for the whole mix marked) and "mixed" (the cheapest
/// hardware per part, and what that mix costs) (docs/plan.md).
std::string mixJson(const MixPlan& plan);
/// Rows of kind "part" (a part on a hardware) and "total" (a hardware over the mix), then "mixed".
std::string mixCsv(const MixPlan& plan);
/// Aligned text: per hardware the GPUs of each part and their sum, the cheapest for the whole mix starred, and the
/// mix of hardware where the cheapest differs per part.
std::string mixTable(const MixPlan& plan);

} // namespace paretoscope
