#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/accuracy.h"
#include "core/analysis/ladder.h"

namespace paretoscope {

/// One precision's best reading on a hardware at the target, with the accuracy of the group read.
struct PrecisionReading {
    std::string precision;
    LadderRow row;
};

/// FP4 against FP8 (and the others present) on one hardware at one target (docs/evaluations.md): what the lower
/// precision gives in tok/s/GPU and $ per million tokens, and what it costs in accuracy.
struct PrecisionTradeoff {
    std::string hardware;
    std::vector<PrecisionReading> readings; ///< lowest precision first: fp4, fp8, bf16 ...
    /// FP4 over FP8 where both have a reading: tok/s/GPU ratio, $/1M ratio; the accuracy difference (FP4 - FP8) and
    /// its standard error (sqrt of the sum of squares), where both groups were evaluated.
    std::optional<double> tputRatio, costRatio, accuracyDifference, differenceError;
    bool withinError = false; ///< the two accuracies' intervals of two standard errors overlap
};

/// Per hardware in the groups, each precision's best reading at request.targets[0] (the request's other groups left
/// as they are), priced as the request says, with the accuracy of its group on the task as of the scope's day.
Result<std::vector<PrecisionTradeoff>> precisionTradeoff(const std::vector<GroupFrontier>& groups,
    const PricingCatalog& pricing, const LadderRequest& request, const EvaluationIndex& evaluations,
    const std::string& task);

} // namespace paretoscope
