#include "core/analysis/tco.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "core/model/embedded.h"
#include "core/model/hardware.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"

namespace paretoscope {

namespace {

using nlohmann::json;

// The numeric fields an entry (or the defaults) may carry, with their bounds: the lower one included or not, the upper
// one a sane limit (a value past it is a typo or an attack, and would turn costs infinite).
struct NumberField {
    const char* name;
    double min;
    bool minIncluded;
    double max;
};
constexpr NumberField kCapex { "capex_per_gpu_usd", 0, true, 1e8 };
constexpr NumberField kYears { "amortization_years", 0.1, true, 100 };
constexpr NumberField kPowerKw { "power_kw", 0, true, 1000 };
constexpr NumberField kElectricity { "electricity_usd_per_kwh", 0, true, 100 };
constexpr NumberField kPue { "pue", 1, true, 10 };
constexpr NumberField kOther { "other_opex_usd_per_gpu_hour", 0, true, 1e4 };

std::string boundText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string rule(const NumberField& f)
{
    return std::string("must be a number ") + (f.minIncluded ? ">= " : "> ") + boundText(f.min)
        + " and <= " + boundText(f.max);
}

// Reads a number that obeys the field's bound; an error names the field as `where`.
Result<double> number(const json& v, const NumberField& f, const std::string& where)
{
    const bool finite = v.is_number() && std::isfinite(v.get<double>());
    const double x = finite ? v.get<double>() : 0;
    if (!finite || (f.minIncluded ? x < f.min : x <= f.min) || x > f.max)
        return Error { where + ": " + rule(f) };
    return x;
}

Status unknownKeys(const json& o, const std::set<std::string>& known, const std::string& where)
{
    for (const auto& [key, value] : o.items())
        if (!known.count(key))
            return Error { where + (where.empty() ? "" : ".") + key + ": unknown key" };
    return ok();
}

// A field of the entry, else of the defaults; missing from both is an error naming the entry's field.
Result<double> entryNumber(const json& e, const json& defaults, const NumberField& f, const std::string& where)
{
    if (e.contains(f.name))
        return number(e[f.name], f, where + "." + f.name);
    if (defaults.contains(f.name))
        return number(defaults[f.name], f, "defaults." + std::string(f.name));
    return Error { where + "." + f.name + ": missing (" + rule(f) + "; give it here or in defaults)" };
}

Result<PowerBasis> entryBasis(const json& e, const json& defaults, const std::string& where)
{
    const bool own = e.contains("power_basis");
    const json* v = own ? &e["power_basis"] : defaults.contains("power_basis") ? &defaults["power_basis"] : nullptr;
    const std::string field = (own || !v ? where + "." : std::string("defaults.")) + "power_basis";
    if (!v)
        return PowerBasis::AllIn; // the basis of the published figures
    std::optional<PowerBasis> b = v->is_string() ? parsePowerBasis(v->get<std::string>()) : std::nullopt;
    if (!b)
        return Error { field + ": must be \"all_in\", \"it\", \"measured\" or \"tdp\"" };
    return *b;
}

Result<TcoEntry> parseEntry(const std::string& key, const json& e, const json& defaults)
{
    const std::string where = "hardware." + key;
    if (!e.is_object())
        return Error { where + ": must be an object" };
    if (auto s = unknownKeys(e,
            { "capex_per_gpu_usd", "amortization_years", "power_basis", "power_kw", "electricity_usd_per_kwh", "pue",
                "other_opex_usd_per_gpu_hour", "note" },
            where);
        !s)
        return Error { s.error() };
    TcoEntry t;
    t.hardware = normalizedKey(key);
    // capital is the hardware's own: never a default
    if (!e.contains(kCapex.name))
        return Error { where + ".capex_per_gpu_usd: missing (" + rule(kCapex) + ")" };
    auto capex = number(e[kCapex.name], kCapex, where + ".capex_per_gpu_usd");
    if (!capex)
        return Error { capex.error() };
    t.capexPerGpuUsd = *capex;
    auto basis = entryBasis(e, defaults, where);
    if (!basis)
        return Error { basis.error() };
    t.powerBasis = *basis;
    const bool needsKw = t.powerBasis == PowerBasis::AllIn || t.powerBasis == PowerBasis::It;
    if (needsKw) {
        if (!e.contains(kPowerKw.name))
            return Error { where + ".power_kw: missing (" + rule(kPowerKw) + ", needed with power_basis \""
                + std::string(powerBasisName(t.powerBasis)) + "\")" };
        auto kw = number(e[kPowerKw.name], kPowerKw, where + ".power_kw");
        if (!kw)
            return Error { kw.error() };
        t.powerKw = *kw;
    } else if (e.contains(kPowerKw.name)) {
        return Error { where + ".power_kw: not used with power_basis \"" + std::string(powerBasisName(t.powerBasis))
            + "\" (remove it, or use \"all_in\" or \"it\")" };
    }
    std::pair<const NumberField*, double*> fields[] { { &kYears, &t.amortizationYears },
        { &kElectricity, &t.electricityUsdPerKwh }, { &kPue, &t.pue }, { &kOther, &t.otherOpexUsdPerGpuHour } };
    for (auto [field, out] : fields) {
        auto v = entryNumber(e, defaults, *field, where);
        if (!v)
            return Error { v.error() };
        *out = *v;
    }
    return t;
}

Status checkDefaults(const json& defaults)
{
    if (!defaults.is_object())
        return Error { "defaults: must be an object" };
    if (auto s = unknownKeys(defaults,
            { "amortization_years", "power_basis", "electricity_usd_per_kwh", "pue", "other_opex_usd_per_gpu_hour" },
            "defaults");
        !s)
        return s;
    for (const NumberField* f : { &kYears, &kElectricity, &kPue, &kOther })
        if (defaults.contains(f->name))
            if (auto v = number(defaults[f->name], *f, "defaults." + std::string(f->name)); !v)
                return Error { v.error() };
    return ok();
}

Result<TcoModel> parseDocument(const json& doc)
{
    if (!doc.is_object())
        return Error { "not a JSON object" };
    if (auto s = unknownKeys(doc, { "source", "note", "defaults", "hardware" }, ""); !s)
        return Error { s.error() };
    TcoModel model;
    if (!doc.contains("source") || !doc["source"].is_string())
        return Error { "source: missing or not a string (say where the figures come from)" };
    model.source = doc["source"].get<std::string>();
    if (doc.contains("note")) {
        if (!doc["note"].is_string())
            return Error { "note: must be a string" };
        model.note = doc["note"].get<std::string>();
    }
    const json defaults = doc.contains("defaults") ? doc["defaults"] : json::object();
    if (auto s = checkDefaults(defaults); !s)
        return Error { s.error() };
    if (!doc.contains("hardware") || !doc["hardware"].is_object())
        return Error { "hardware: missing or not an object keyed by hardware" };
    for (const auto& [key, e] : doc["hardware"].items()) {
        auto entry = parseEntry(key, e, defaults);
        if (!entry)
            return Error { entry.error() };
        if (model.byHardware.count(entry->hardware))
            return Error { "hardware." + key + ": hardware '" + entry->hardware + "' appears twice" };
        model.byHardware.emplace(entry->hardware, std::move(*entry));
    }
    return model;
}

} // namespace

std::string_view powerBasisName(PowerBasis b)
{
    switch (b) {
    case PowerBasis::AllIn:
        return "all_in";
    case PowerBasis::It:
        return "it";
    case PowerBasis::Measured:
        return "measured";
    case PowerBasis::Tdp:
        return "tdp";
    }
    return "all_in";
}

std::optional<PowerBasis> parsePowerBasis(std::string_view name)
{
    for (PowerBasis b : { PowerBasis::AllIn, PowerBasis::It, PowerBasis::Measured, PowerBasis::Tdp })
        if (powerBasisName(b) == name)
            return b;
    return std::nullopt;
}

const TcoEntry* TcoModel::find(std::string_view hardware) const
{
    auto it = byHardware.find(normalizedKey(hardware));
    return it == byHardware.end() ? nullptr : &it->second;
}

Result<TcoModel> parseTco(std::string_view text, const std::string& name)
{
    auto doc = parseOutsideJson(text, name, limits::kJsonDepth);
    if (!doc)
        return Error { doc.error() };
    auto model = parseDocument(*doc);
    if (!model)
        return Error { name + ": " + model.error() };
    return model;
}

const TcoModel& bundledTco()
{
    static const TcoModel model = [] {
        auto parsed = parseTco(embedded::tco_default_json(), "tco_default.json");
        // The shipped file is checked by tst_plan; a broken build of it is a programming error.
        return parsed ? *parsed : TcoModel {};
    }();
    return model;
}

Result<TcoCost> tcoCost(const TcoEntry& e, const HardwarePower* power, std::optional<double> measuredGpuW)
{
    TcoCost c;
    c.basis = e.powerBasis;
    if (c.basis == PowerBasis::Measured) {
        if (measuredGpuW && *measuredGpuW > 0)
            c.kwPerGpu = *measuredGpuW / 1000.0;
        else {
            c.basis = PowerBasis::Tdp;
            c.note = "no measured power in the runs: the GPU's TDP is used";
        }
    }
    if (c.basis == PowerBasis::Tdp) {
        if (!power || !(power->tdpW > 0))
            return Error { "no TDP known for " + e.hardware + " (resources/hardware_power.json)" };
        c.kwPerGpu = power->tdpW / 1000.0;
    } else if (c.basis != PowerBasis::Measured) {
        c.kwPerGpu = e.powerKw.value_or(0);
    }
    c.pue = c.basis == PowerBasis::AllIn ? 1.0 : e.pue;
    c.capital = e.capexPerGpuUsd / (e.amortizationYears * kHoursPerYear);
    c.energy = c.kwPerGpu * c.pue * e.electricityUsdPerKwh;
    c.other = e.otherOpexUsdPerGpuHour;
    c.usdPerGpuHour = c.capital + c.energy + c.other;
    return c;
}

} // namespace paretoscope
