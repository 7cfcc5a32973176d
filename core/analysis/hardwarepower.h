#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/model/result.h"

namespace paretoscope {

/// Power and deployment unit of one hardware (resources/hardware_power.json; docs/architecture.md sections 11, 12.3).
struct HardwarePower {
    std::string hardware; ///< lower-case key: b300, gb200 ...
    double allInKw = 0; ///< all-in provisioned utility kW per GPU (host, network, cooling included: no PUE on top)
    double tdpW = 0; ///< the GPU's own thermal design power
    int gpusPerNode = 8; ///< the scale unit a deployment is counted in
    std::string nodeUnit = "node"; ///< "node" (HGX/OAM board) or "rack" (NVL72)
};

/// The shipped registry, with its source named.
struct HardwarePowerCatalog {
    std::string source;
    std::map<std::string, HardwarePower> byHardware;

    /// The entry of a hardware (its name normalised as normalizedKey does), or nothing.
    const HardwarePower* find(std::string_view hardware) const;
};

/// Reads a registry from JSON; errors name the entry and field.
Result<HardwarePowerCatalog> parseHardwarePower(std::string_view json);
/// The registry shipped in resources/hardware_power.json.
const HardwarePowerCatalog& bundledHardwarePower();

/// All-in provisioned J per token = kW x 1,000 / (tok/s/GPU) (docs/architecture.md section 11.1); nothing when
/// tok/s is not above 0.
std::optional<double> allInJoulesPerToken(double allInKw, double tokensPerSecondPerGpu);
/// Tokens/s per all-in provisioned MW = (tok/s/GPU) x 1,000 / kW; nothing when kW is not above 0.
std::optional<double> tokensPerSecondPerAllInMegawatt(double allInKw, double tokensPerSecondPerGpu);
/// Measured J per token (GPU only) = average GPU power W / (tok/s/GPU); nothing when either is missing or not above 0.
std::optional<double> measuredJoulesPerToken(std::optional<double> avgPowerW, double tokensPerSecondPerGpu);

} // namespace paretoscope
