#pragma once

#include <string>

namespace paretoscope {

/// Paretoscope's hardware key for a device name (B300 -> b300, MI325X -> mi325x ...), empty when not recognised.
std::string hardwareKeyFor(const std::string& name, const std::string& architecture);

} // namespace paretoscope
