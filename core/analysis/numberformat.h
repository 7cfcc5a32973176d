#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace paretoscope {

/// $ per million tokens as the seed page prints it: "$0.002".
std::string money(double usd);

/// A number as printf's %g writes it: 50, 0.25, 1e+06.
std::string shortNumber(double v);
/// The shortest text that reads back as the same double, as a person writes it on a command line: 2000000, 0.7
/// (never 2e+06).
std::string exactNumber(double v);

/// s padded with blanks to width w, on the left (right-aligned) or on the right.
std::string padded(const std::string& s, std::size_t w, bool right);
/// The columns a UTF-8 text takes in a terminal table: its characters (padded and the aligned tables count these).
std::size_t displayWidth(std::string_view s);

/// 328417 -> "328,417"; fractional values keep `decimals` digits; "-" for NaN and infinities.
std::string withThousands(double v, int decimals = 0);
/// withThousands of a value that may be missing: "-" for none.
std::string withThousands(const std::optional<double>& v, int decimals = 0);

/// A deployment's power: under a megawatt in kW ("850.0 kW", "7.25 kW" under 10), else in MW ("1.25 MW").
std::string powerText(double kw);

/// A small quantity to `digits` significant digits, without an exponent down to 1e-6: 0.005785 -> "0.00579".
std::string withSignificant(double v, int digits = 3);

} // namespace paretoscope
