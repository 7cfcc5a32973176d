#include "ladderreport.h"

#include <algorithm>

namespace paretoscope {

std::string_view metricName(TputMetric m)
{
    switch (m) {
    case TputMetric::Total:
        return "total";
    case TputMetric::Input:
        return "input";
    case TputMetric::Output:
        return "output";
    }
    return "total";
}

std::optional<TputMetric> parseMetric(std::string_view name)
{
    if (name == "total")
        return TputMetric::Total;
    if (name == "input")
        return TputMetric::Input;
    if (name == "output")
        return TputMetric::Output;
    return std::nullopt;
}

namespace {

Result<const PricingTier*> chosenTier(const PricingCatalog& pricing, const PriceChoice& price)
{
    const PricingTier* tier = nullptr;
    if (!price.customUsdPerGpuHour) {
        tier = price.tierKey.empty() ? &pricing.defaultTier() : pricing.find(price.tierKey);
        if (!tier) {
            std::string known;
            for (const auto& t : pricing.tiers)
                known += (known.empty() ? "" : ", ") + t.key;
            return Error { "unknown pricing tier '" + price.tierKey + "' (known: " + known + ")" };
        }
    } else if (!(*price.customUsdPerGpuHour > 0)) {
        return Error { "a custom price must be above zero $/GPU/hr" };
    }
    return tier;
}

} // namespace

Result<std::optional<double>> priceFor(const PricingCatalog& pricing, const PriceChoice& choice, const std::string& hw)
{
    auto tier = chosenTier(pricing, choice);
    if (!tier)
        return Error { tier.error() };
    return *tier ? (*tier)->price(hw) : choice.customUsdPerGpuHour;
}

Result<std::vector<HardwareLadder>> computeLadder(
    FrontierCache& cache, const PricingCatalog& pricing, const LadderRequest& req)
{
    if (auto tier = chosenTier(pricing, req.price); !tier)
        return Error { tier.error() };
    return computeLadder(cache.frontiers(req.scope, req.metric), pricing, req);
}

Result<std::vector<HardwareLadder>> computeLadder(
    const std::vector<GroupFrontier>& groups, const PricingCatalog& pricing, const LadderRequest& req)
{
    auto chosen = chosenTier(pricing, req.price);
    if (!chosen)
        return Error { chosen.error() };
    const PricingTier* tier = *chosen;
    std::vector<std::string> hardware = req.scope.hardware;
    if (hardware.empty()) {
        for (const GroupFrontier& g : groups)
            if (std::find(hardware.begin(), hardware.end(), g.key.hardware) == hardware.end())
                hardware.push_back(g.key.hardware);
        std::sort(hardware.begin(), hardware.end());
    }
    std::vector<HardwareLadder> out;
    for (const std::string& hw : hardware) {
        std::vector<const GroupFrontier*> mine;
        for (const GroupFrontier& g : groups)
            if (g.key.hardware == hw)
                mine.push_back(&g);
        HardwareLadder ladder { hw, {} };
        std::optional<double> price = tier ? tier->price(hw) : req.price.customUsdPerGpuHour;
        for (LadderEntry& e : readLadder(mine, req.targets, req.clamp, req.hideSparse)) {
            LadderRow row;
            row.tier = tier ? tier->key : "custom";
            row.usdPerGpuHour = price;
            if (e.value && price) {
                row.costPerMTok = costPerMillionTokens(*price, *e.value);
                row.tokensPerDollar = tokensPerDollar(*price, *e.value);
            }
            row.entry = std::move(e);
            ladder.rows.push_back(std::move(row));
        }
        out.push_back(std::move(ladder));
    }
    return out;
}

} // namespace paretoscope
