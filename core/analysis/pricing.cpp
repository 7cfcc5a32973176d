#include "core/analysis/pricing.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/model/embedded.h"

namespace paretoscope {

std::optional<double> PricingTier::price(const std::string& hardware) const
{
    auto it = usdPerGpuHour.find(hardware);
    if (it == usdPerGpuHour.end())
        return std::nullopt;
    return it->second;
}

const PricingTier* PricingCatalog::find(std::string_view key) const
{
    for (const PricingTier& t : tiers)
        if (t.key == key)
            return &t;
    return nullptr;
}

Result<PricingCatalog> parsePricing(std::string_view text)
{
    auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return Error { "pricing: not a JSON object" };
    PricingCatalog cat;
    if (!doc.contains("source") || !doc["source"].is_string())
        return Error { "pricing: field 'source': missing or not a string" };
    cat.source = doc["source"].get<std::string>();
    if (!doc.contains("tables") || !doc["tables"].is_array())
        return Error { "pricing: field 'tables': missing or not an array" };
    for (std::size_t ti = 0; ti < doc["tables"].size(); ++ti) {
        const auto& table = doc["tables"][ti];
        std::string where = "pricing: tables[" + std::to_string(ti) + "]";
        if (!table.is_object() || !table.contains("name") || !table["name"].is_string() || !table.contains("tiers")
            || !table["tiers"].is_array())
            return Error { where + ": needs 'name' and 'tiers'" };
        for (std::size_t i = 0; i < table["tiers"].size(); ++i) {
            const auto& t = table["tiers"][i];
            std::string w = where + ".tiers[" + std::to_string(i) + "]";
            if (!t.is_object() || !t.contains("key") || !t["key"].is_string() || !t.contains("label")
                || !t["label"].is_string() || !t.contains("usd_per_gpu_hour") || !t["usd_per_gpu_hour"].is_object())
                return Error { w + ": needs 'key', 'label' and 'usd_per_gpu_hour'" };
            PricingTier tier;
            tier.key = t["key"].get<std::string>();
            tier.label = t["label"].get<std::string>();
            tier.table = table["name"].get<std::string>();
            for (auto& [hw, v] : t["usd_per_gpu_hour"].items()) {
                if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
                    return Error { w + ".usd_per_gpu_hour." + hw + ": must be a price above zero" };
                tier.usdPerGpuHour[hw] = v.get<double>();
            }
            if (cat.find(tier.key))
                return Error { w + ": tier key '" + tier.key + "' appears twice" };
            cat.tiers.push_back(std::move(tier));
        }
    }
    if (cat.tiers.empty())
        return Error { "pricing: no tiers" };
    return cat;
}

const PricingCatalog& bundledPricing()
{
    // the shipped file is checked by the tests; a broken build resource is a programming error
    static const PricingCatalog catalog = [] {
        auto c = parsePricing(embedded::pricing_tiers_json());
        return c ? *c : PricingCatalog { "unavailable: " + c.error(), { PricingTier { "none", "none", "", {} } } };
    }();
    return catalog;
}

double costPerMillionTokens(double usdPerGpuHour, double tokensPerSecondPerGpu)
{
    return usdPerGpuHour / (tokensPerSecondPerGpu * 3600.0) * 1e6;
}

double tokensPerDollar(double usdPerGpuHour, double tokensPerSecondPerGpu)
{
    return tokensPerSecondPerGpu * 3600.0 / usdPerGpuHour;
}

double joulesPerToken(double powerW, double tokensPerSecond)
{
    return powerW / tokensPerSecond;
}

double tokensPerSecondPerMegawatt(double tokensPerSecond, double powerW)
{
    return tokensPerSecond * 1e6 / powerW;
}

} // namespace paretoscope
