#pragma once

#include <string>

namespace paretoscope {

/// $ per million tokens as the seed page prints it: "$0.002".
std::string money(double usd);

/// 328417 -> "328,417"; fractional values keep `decimals` digits; "-" for NaN and infinities.
std::string withThousands(double v, int decimals = 0);

} // namespace paretoscope
