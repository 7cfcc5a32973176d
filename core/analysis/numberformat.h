#pragma once

#include <string>

namespace paretoscope {

/// $ per million tokens as the seed page prints it: "$0.002".
std::string money(double usd);

/// 328417 -> "328,417"; fractional values keep `decimals` digits; "-" for NaN and infinities.
std::string withThousands(double v, int decimals = 0);

/// A small quantity to `digits` significant digits, without an exponent down to 1e-6: 0.005785 -> "0.00579".
std::string withSignificant(double v, int digits = 3);

} // namespace paretoscope
