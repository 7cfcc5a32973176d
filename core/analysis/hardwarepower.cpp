#include "core/analysis/hardwarepower.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/model/embedded.h"
#include "core/model/hardware.h"

namespace paretoscope {

namespace {

bool positive(const nlohmann::json& v)
{
    return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0;
}

} // namespace

const HardwarePower* HardwarePowerCatalog::find(std::string_view hardware) const
{
    auto it = byHardware.find(normalizedKey(hardware));
    return it == byHardware.end() ? nullptr : &it->second;
}

Result<HardwarePowerCatalog> parseHardwarePower(std::string_view text)
{
    auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return Error { "hardware power: not a JSON object" };
    HardwarePowerCatalog cat;
    if (!doc.contains("source") || !doc["source"].is_string())
        return Error { "hardware power: field 'source': missing or not a string" };
    cat.source = doc["source"].get<std::string>();
    if (!doc.contains("hardware") || !doc["hardware"].is_array())
        return Error { "hardware power: field 'hardware': missing or not an array" };
    for (std::size_t i = 0; i < doc["hardware"].size(); ++i) {
        const auto& e = doc["hardware"][i];
        std::string where = "hardware power: hardware[" + std::to_string(i) + "]";
        if (!e.is_object() || !e.contains("hardware") || !e["hardware"].is_string())
            return Error { where + ".hardware: missing or not a string" };
        for (const char* field : { "all_in_kw", "tdp_w", "gpus_per_node" })
            if (!e.contains(field) || !positive(e[field]))
                return Error { where + "." + field + ": missing or not a number above zero" };
        HardwarePower p;
        p.hardware = normalizedKey(e["hardware"].get<std::string>());
        p.allInKw = e["all_in_kw"].get<double>();
        p.tdpW = e["tdp_w"].get<double>();
        double perNode = e["gpus_per_node"].get<double>();
        if (perNode != std::floor(perNode))
            return Error { where + ".gpus_per_node: not a whole number" };
        p.gpusPerNode = int(perNode);
        if (e.contains("node_unit")) {
            if (!e["node_unit"].is_string() || (e["node_unit"] != "node" && e["node_unit"] != "rack"))
                return Error { where + ".node_unit: must be \"node\" or \"rack\"" };
            p.nodeUnit = e["node_unit"].get<std::string>();
        }
        if (cat.byHardware.count(p.hardware))
            return Error { where + ": hardware '" + p.hardware + "' appears twice" };
        cat.byHardware.emplace(p.hardware, std::move(p));
    }
    return cat;
}

const HardwarePowerCatalog& bundledHardwarePower()
{
    static const HardwarePowerCatalog catalog = [] {
        auto parsed = parseHardwarePower(embedded::hardware_power_json());
        // The shipped file is checked by tst_plan; a broken build of it is a programming error.
        return parsed ? *parsed : HardwarePowerCatalog {};
    }();
    return catalog;
}

std::optional<double> allInJoulesPerToken(double allInKw, double tokensPerSecondPerGpu)
{
    if (!(tokensPerSecondPerGpu > 0) || !(allInKw > 0))
        return std::nullopt;
    return allInKw * 1000.0 / tokensPerSecondPerGpu;
}

std::optional<double> tokensPerSecondPerAllInMegawatt(double allInKw, double tokensPerSecondPerGpu)
{
    if (!(allInKw > 0) || !(tokensPerSecondPerGpu >= 0))
        return std::nullopt;
    return tokensPerSecondPerGpu * 1000.0 / allInKw;
}

std::optional<double> measuredJoulesPerToken(std::optional<double> avgPowerW, double tokensPerSecondPerGpu)
{
    if (!avgPowerW || !(*avgPowerW > 0) || !(tokensPerSecondPerGpu > 0))
        return std::nullopt;
    return *avgPowerW / tokensPerSecondPerGpu;
}

} // namespace paretoscope
