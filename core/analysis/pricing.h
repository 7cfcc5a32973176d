#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/result.h"

namespace paretoscope {

/// The highest $/GPU/hr a custom price may be: anything above is a typo (or an attack) that would make costs
/// meaningless or infinite.
constexpr double kMaxUsdPerGpuHour = 1e4;

/// One pricing tier: $ per GPU-hour per hardware key.
struct PricingTier {
    std::string key; ///< e.g. "hyperscaler", "mid2026-neocloud"
    std::string label; ///< its table, then the tier: "Latest: owning at large hyperscaler volume"
    std::string table; ///< which published table it belongs to
    std::map<std::string, double> usdPerGpuHour;

    std::optional<double> price(const std::string& hardware) const;
};

/// The shipped tiers, with their source named.
struct PricingCatalog {
    std::string source;
    std::vector<PricingTier> tiers;

    const PricingTier* find(std::string_view key) const;
    /// The tier used when none is chosen: the first one (hyperscaler owning).
    const PricingTier& defaultTier() const { return tiers.front(); }
};

/// Reads a pricing catalogue from JSON; errors name the field.
Result<PricingCatalog> parsePricing(std::string_view json);
/// The catalogue shipped in resources/pricing_tiers.json.
const PricingCatalog& bundledPricing();

/// $ per million tokens = ($/GPU/hr) / (tok/s/GPU x 3600) x 1e6 (docs/architecture.md section 8).
double costPerMillionTokens(double usdPerGpuHour, double tokensPerSecondPerGpu);
/// Tokens per dollar, the reciprocal view.
double tokensPerDollar(double usdPerGpuHour, double tokensPerSecondPerGpu);
/// J/token = power_W / tok/s.
double joulesPerToken(double powerW, double tokensPerSecond);
/// tok/s per MW = tok/s x 1e6 / power_W.
double tokensPerSecondPerMegawatt(double tokensPerSecond, double powerW);

} // namespace paretoscope
