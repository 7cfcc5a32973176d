#include "ladderreport.h"

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

Result<std::vector<HardwareLadder>> computeLadder(
    FrontierCache& cache, const PricingCatalog& pricing, const LadderRequest& req)
{
    const PricingTier* tier = nullptr;
    if (!req.price.customUsdPerGpuHour) {
        tier = req.price.tierKey.empty() ? &pricing.defaultTier() : pricing.find(req.price.tierKey);
        if (!tier) {
            std::string known;
            for (const auto& t : pricing.tiers)
                known += (known.empty() ? "" : ", ") + t.key;
            return Error { "unknown pricing tier '" + req.price.tierKey + "' (known: " + known + ")" };
        }
    } else if (!(*req.price.customUsdPerGpuHour > 0)) {
        return Error { "a custom price must be above zero $/GPU/hr" };
    }

    const auto& groups = cache.frontiers(req.scope, req.metric);
    std::vector<std::string> hardware = req.scope.hardware;
    if (hardware.empty())
        hardware = cache.hardware(req.scope, req.metric);

    std::vector<HardwareLadder> out;
    for (const std::string& hw : hardware) {
        std::vector<const GroupFrontier*> mine;
        for (const GroupFrontier& g : groups)
            if (g.key.hardware == hw)
                mine.push_back(&g);
        HardwareLadder ladder { hw, {} };
        std::optional<double> price = tier ? tier->price(hw) : req.price.customUsdPerGpuHour;
        for (LadderEntry& e : readLadder(mine, req.targets, req.clamp)) {
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
