#include "core/output/tcowriter.h"

#include <nlohmann/json.hpp>

namespace paretoscope {

std::string tcoJson(const TcoModel& model)
{
    nlohmann::ordered_json doc;
    doc["source"] = model.source;
    if (!model.note.empty())
        doc["note"] = model.note;
    nlohmann::ordered_json hardware = nlohmann::ordered_json::object();
    for (const auto& [key, e] : model.byHardware) {
        nlohmann::ordered_json h;
        h["capex_per_gpu_usd"] = e.capexPerGpuUsd;
        h["amortization_years"] = e.amortizationYears;
        h["power_basis"] = std::string(powerBasisName(e.powerBasis));
        if (e.powerKw)
            h["power_kw"] = *e.powerKw;
        h["electricity_usd_per_kwh"] = e.electricityUsdPerKwh;
        h["pue"] = e.pue;
        h["other_opex_usd_per_gpu_hour"] = e.otherOpexUsdPerGpuHour;
        hardware[key] = std::move(h);
    }
    doc["hardware"] = std::move(hardware);
    return doc.dump(2) + "\n";
}

} // namespace paretoscope
