#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/plan.h"

namespace paretoscope {

/// One hardware under a cost cap: the fastest deployable operating point whose list $ per million tokens stays
/// within the cap, and the demand plan at that interactivity.
struct CapHardware {
    std::string hardware;
    /// The highest tok/s/user whose deployable $/1M tokens is at most the cap; empty where none is.
    std::optional<double> interactivity;
    /// The plan at `interactivity` (its target), sized for the request's demand; at the request's target where
    /// there is none (then it says why).
    HardwarePlan plan;
    bool fastest = false; ///< the highest interactivity within the cap among the hardware
    /// The demand it is sized for, tokens/s of the metric: the request's, or for a demand in users, users x its
    /// interactivity.
    double demandTokensPerSecond = 0;
    std::string why; ///< why no point is within the cap, for a reader; empty when one is
};

struct CapPlan {
    double capUsdPerMTok = 0;
    double demandTokensPerSecond = 0;
    TputMetric metric = TputMetric::Total;
    std::vector<CapHardware> hardware; ///< sorted by hardware
};

/// The cost cap, the cost-of-speed curve read backwards (docs/architecture.md section 12.9): per hardware, the highest
/// interactivity t whose deployable reading R(t) (section 12.2, the target as a floor) keeps the list $/1M tokens,
/// $/GPU/hr / (R x 3600) x 1e6, at or below `capUsdPerMTok`. R(t) never rises with t, so t is where one
/// configuration's curve meets the R the cap allows (a knot, or a point between two of its concurrencies, found by
/// bisection). Errors: a cap not above zero, and what computePlan refuses.
Result<CapPlan> computeCostCap(const PlanFrontiers& data, const PlanRequest& request, double capUsdPerMTok,
    const PricingCatalog& pricing = bundledPricing(), const HardwarePowerCatalog& power = bundledHardwarePower());

} // namespace paretoscope
