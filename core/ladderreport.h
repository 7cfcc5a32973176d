#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontiercache.h"
#include "ladder.h"
#include "pricing.h"
#include "result.h"

namespace paretoscope {

/// Which $/GPU/hr to price with: a shipped tier by key, or the user's own price.
struct PriceChoice {
    std::string tierKey; ///< empty: the catalogue's default tier
    std::optional<double> customUsdPerGpuHour;
};

/// A ladder question: the scope, the targets, the token metric, whether to clamp, and the price.
struct LadderRequest {
    Scope scope;
    std::vector<double> targets = defaultTargets();
    TputMetric metric = TputMetric::Total;
    bool clamp = false;
    bool hideSparse = false; ///< readings across gaps wider than kSparseGap do not count (readLadder)
    PriceChoice price;
};

/// One target's reading with its cost.
struct LadderRow {
    LadderEntry entry;
    std::optional<double> costPerMTok; ///< $ per million tokens of the chosen metric
    std::optional<double> tokensPerDollar;
    std::optional<double> usdPerGpuHour;
    std::string tier; ///< tier key, or "custom"
    std::optional<double> speedOfLightPct; ///< the reading as a share of its hardware's speed of light, percent
};

/// The ladder of one hardware.
struct HardwareLadder {
    std::string hardware;
    std::vector<LadderRow> rows;
};

/// Reads every hardware in scope (or the ones the scope names) at the targets and prices each reading. The same
/// function serves the CLI's `ladder` and the GUI's readout and ladder table.
Result<std::vector<HardwareLadder>> computeLadder(
    FrontierCache& cache, const PricingCatalog& pricing, const LadderRequest& request);
/// The same on frontiers already at hand (the request's scope only picks the hardware): what the GUI calls with the
/// frontiers its worker delivered, so that a slider step never touches the store.
Result<std::vector<HardwareLadder>> computeLadder(
    const std::vector<GroupFrontier>& groups, const PricingCatalog& pricing, const LadderRequest& request);
/// The $/GPU/hr a choice gives for a hardware; empty when the tier has no price for it. Errors: unknown tier,
/// custom price not above zero.
Result<std::optional<double>> priceFor(const PricingCatalog& pricing, const PriceChoice& choice, const std::string& hw);

/// "total", "input", "output"
std::string_view metricName(TputMetric m);
std::optional<TputMetric> parseMetric(std::string_view name);

} // namespace paretoscope
