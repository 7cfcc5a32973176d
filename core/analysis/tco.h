#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/analysis/hardwarepower.h"
#include "core/model/result.h"

namespace paretoscope {

/// What the power per GPU of a TCO entry is: all-in provisioned kW (facility overhead included: no PUE on top), IT kW
/// (GPU and its host share: times the PUE), the runs' measured average GPU power (times the PUE), or the GPU's TDP
/// (times the PUE).
enum class PowerBasis { AllIn, It, Measured, Tdp };
/// "all_in", "it", "measured", "tdp"
std::string_view powerBasisName(PowerBasis b);
std::optional<PowerBasis> parsePowerBasis(std::string_view name);

/// One hardware's cost of ownership (docs/architecture.md section 12.6): capital per GPU (its share of the system),
/// amortised over years, power per GPU on a basis, electricity price, PUE and other operating cost.
struct TcoEntry {
    std::string hardware; ///< normalised key
    double capexPerGpuUsd = 0;
    double amortizationYears = 0;
    PowerBasis powerBasis = PowerBasis::AllIn;
    std::optional<double> powerKw; ///< per GPU; given for AllIn and It, empty for Measured and Tdp
    double electricityUsdPerKwh = 0;
    double pue = 1;
    double otherOpexUsdPerGpuHour = 0;
};

/// A TCO model: its sources and an entry per hardware.
struct TcoModel {
    std::string source;
    std::string note; ///< e.g. that capital figures are example values to edit
    std::map<std::string, TcoEntry> byHardware;

    /// The entry of a hardware (its name normalised), or nothing.
    const TcoEntry* find(std::string_view hardware) const;
};

/// An effective $/GPU/hr and its parts: capital / (years x 8,760) + kW x (PUE unless all-in) x $/kWh + other.
struct TcoCost {
    double usdPerGpuHour = 0;
    double capital = 0; ///< $/GPU/hr
    double energy = 0; ///< $/GPU/hr
    double other = 0; ///< $/GPU/hr
    double kwPerGpu = 0; ///< the power the energy part was computed from (before the PUE)
    PowerBasis basis = PowerBasis::AllIn; ///< the basis used (Tdp where Measured had no measured power)
    double pue = 1; ///< the factor applied (1 for all-in power)
    std::string note; ///< why the basis differs from the entry's, if it does
};

/// Reads a TCO model; `name` (the file name) starts every error, which names the field: "tco.json:
/// hardware.b300.capex_per_gpu_usd: must be a number >= 0". Unknown keys, missing, negative and non-numeric values
/// are errors. Per entry, fields other than capex_per_gpu_usd and power_kw may come from "defaults"; power_basis is
/// all_in where neither gives it.
Result<TcoModel> parseTco(std::string_view json, const std::string& name);
/// The example shipped in resources/tco_default.json.
const TcoModel& bundledTco();

/// The effective $/GPU/hr of an entry. `power` supplies the TDP for the Tdp basis (and the fallback of Measured);
/// `measuredGpuW` is the runs' average GPU power for the Measured basis. Errors: no TDP known where it is needed.
Result<TcoCost> tcoCost(const TcoEntry& entry, const HardwarePower* power, std::optional<double> measuredGpuW);

/// Hours in a year for amortisation.
constexpr double kHoursPerYear = 8760;

} // namespace paretoscope
