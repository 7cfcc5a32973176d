#pragma once

#include <string>
#include <string_view>

namespace paretoscope {

/// Paretoscope's hardware key for a device name (B300 -> b300, MI325X -> mi325x ...), empty when not recognised.
std::string hardwareKeyFor(const std::string& name, const std::string& architecture);

/// A name as the store keys it: hardware, engine and precision are compared trimmed of white space and lower-cased
/// (" B300 " -> "b300"). Every front end normalises what the user types with this.
std::string normalizedKey(std::string_view name);

} // namespace paretoscope
