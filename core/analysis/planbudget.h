#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/analysis/plan.h"

namespace paretoscope {

/// What a budget is given in: all-in provisioned megawatts, or dollars a month (docs/architecture.md section 12.5).
enum class BudgetKind { Megawatts, UsdPerMonth };
/// "mw", "usd_per_month"
std::string_view budgetKindName(BudgetKind k);

/// What a budget buys on one hardware at the target: whole replicas of the deployable configuration (the demand
/// plan's reading, headroom kept spare), and what they serve.
struct BudgetHardware {
    /// The reading, configuration, price and power as the demand plan has them; its gpus, replicas, nodes, powerMw and
    /// costPerMonth are the budget's deployment (0 GPUs where not one replica fits).
    HardwarePlan plan;
    bool fits = false; ///< at least one replica fits the budget
    double replicaCost = 0; ///< what one replica takes of the budget: MW or $/month
    double servedTokPerS = 0; ///< tokens/s of the plan's metric the deployment serves, headroom kept spare
    std::optional<double> totalTokPerS, outputTokPerS; ///< in + out and output tokens/s (the other one needs lengths)
    std::optional<double> users; ///< output tok/s / target: users at the target interactivity
    std::optional<double> requestsPerS; ///< total tok/s / (isl + osl), with fixed lengths
    bool most = false; ///< serves the most tokens/s among the hardware
    std::string why; ///< why nothing is served, for a reader; empty when it fits
};

struct BudgetPlan {
    BudgetKind kind = BudgetKind::Megawatts;
    double amount = 0;
    double target = 0;
    TputMetric metric = TputMetric::Total;
    std::vector<BudgetHardware> hardware; ///< sorted by hardware
};

/// The largest budgets a plan takes: past them the GPU counts pass what can be counted.
constexpr double kMaxBudgetMw = 1e6;
constexpr double kMaxBudgetUsdPerMonth = 1e13;
/// The most GPUs a budget plan deploys: past it (a price near $0) the budget is not sized.
constexpr double kMaxBudgetGpus = 1e12;

/// Per hardware, the whole replicas (and their nodes) of the deployable configuration at the request's target that fit
/// the budget, and what they serve; the request's demand is not read (its unit picks the metric: output tokens for
/// output-tok/s and users). Power is all-in provisioned kW per GPU (resources/hardware_power.json), money the request's
/// cost model. Errors: a budget not above zero or past the largest, and what computePlan refuses.
Result<BudgetPlan> computeBudgetPlan(const PlanFrontiers& data, const PlanRequest& request, BudgetKind kind,
    double amount, const PricingCatalog& pricing = bundledPricing(),
    const HardwarePowerCatalog& power = bundledHardwarePower());

} // namespace paretoscope
