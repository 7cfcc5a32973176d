#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/plan.h"

namespace paretoscope {

/// One part of a workload mix: a scope (the plan's, with its own lengths and model where given), its share of the
/// demand and its own target where given (docs/architecture.md section 12.10).
struct MixPart {
    std::string label; ///< "1024/1024", or the mix file's label
    Scope scope;
    double share = 0; ///< of the demand, in (0, 1]; the parts' shares add up to 1
    std::optional<double> target; ///< tok/s/user; the plan's target where not given
};

/// The most parts a mix has.
constexpr std::size_t kMaxMixParts = 16;

/// "1024/1024:0.7,8192/1024:0.3" (ISL/OSL:SHARE, each part optionally @TARGET): the parts on the base scope's
/// model. Errors name the part and what is wrong with it; shares must add up to 1 (within 1e-6).
Result<std::vector<MixPart>> parseMixSpec(std::string_view spec, const Scope& base);
/// A mix file: {"parts": [{"label", "model", "isl", "osl", "share", "target"}, ...]}, isl, osl and share required;
/// unknown keys are refused. Errors start with `name` and name the part and field.
Result<std::vector<MixPart>> parseMixFile(std::string_view json, const std::string& name, const Scope& base);
/// The mix as --mix writes it where every part shares the base's model ("1024/1024:0.7,8192/1024:0.3@40"); empty
/// where a part names another model (a mix file says it).
std::string mixSpecText(const std::vector<MixPart>& parts, const Scope& base);

/// One hardware over the whole mix: the sum of its parts' plans.
struct MixHardware {
    std::string hardware;
    bool complete = false; ///< every part is sized on it
    long long gpus = 0; ///< the parts' GPUs summed (of the parts sized)
    long long nodes = 0;
    std::optional<double> powerMw, costPerMonth; ///< summed, where every sized part has one
    bool cheapest = false; ///< the lowest $/month among the complete hardware
};

/// A plan over several scopes at once.
struct MixPlan {
    std::vector<MixPart> parts;
    std::vector<Plan> plans; ///< a plan per part, in the parts' order
    std::vector<MixHardware> hardware; ///< every hardware of any part, sorted
    /// The cheapest hardware of each part (empty where no hardware is sized for it), and what that mix of hardware
    /// costs and takes when every part has one.
    std::vector<std::string> cheapestPerPart;
    std::optional<double> mixedCostPerMonth;
    long long mixedGpus = 0;
    /// The cheapest per part differ: a mix of hardware is cheaper than any one hardware.
    bool mixedDiffers = false;
};

/// Plans each part (its share of the request's demand, in the request's unit, at its target) on its frontiers
/// (`data`, one per part in order), and sums per hardware. Errors: parts and frontiers that do not pair up, and what
/// computePlan refuses (named by part).
Result<MixPlan> computeMixPlan(const std::vector<const PlanFrontiers*>& data, const PlanRequest& request,
    const std::vector<MixPart>& parts, const PricingCatalog& pricing = bundledPricing(),
    const HardwarePowerCatalog& power = bundledHardwarePower());

} // namespace paretoscope
