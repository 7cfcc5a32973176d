#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace paretoscope {

/// An energy metric of a reading or a run (docs/architecture.md section 11). The all-in ones come from the hardware's
/// all-in provisioned kW per GPU (resources/hardware_power.json), the measured one from the runs' own average GPU
/// power: two bases, never mixed without saying so (energyBasis). Each is of the tokens the throughput counts
/// (total by default).
enum class EnergyMetric {
    None,
    TokensPerMegawatt, ///< tok/s per all-in provisioned MW = tok/s/GPU x 1,000 / kW (higher is better)
    JoulesPerToken, ///< all-in provisioned J/token = kW x 1,000 / tok/s/GPU (lower is better)
    MeasuredJoulesPerToken, ///< measured J/token = average GPU power W / tok/s/GPU, GPU only (lower is better)
};

/// "tok-per-mw", "j-per-token", "measured-j-per-token" ("" for None): the CLI's --metric values.
std::string_view energyMetricName(EnergyMetric m);
std::optional<EnergyMetric> parseEnergyMetric(std::string_view name);
/// "all-in provisioned" or "measured, GPU only".
std::string_view energyBasis(EnergyMetric m);
/// The unit with its basis: "tok/s per MW (all-in provisioned)", "J/token (measured, GPU only)".
std::string energyLabel(EnergyMetric m);
bool lowerIsBetter(EnergyMetric m);

} // namespace paretoscope
