#pragma once

#include <string>
#include <string_view>

#include "core/model/result.h"

namespace paretoscope {

/// How a locale writes numbers: its decimal mark and its thousands separator (UTF-8).
struct NumberSyntax {
    std::string decimal = ".";
    std::string group = ",";
};

/// What a number box takes: [min, max], min itself left out with minExclusive.
struct NumberBounds {
    double min = 0;
    double max = 0;
    bool minExclusive = false;
};

/// A number as a person types it (docs/architecture.md section 12.11): surrounding spaces, an optional sign, digits
/// with the locale's thousands separators where they belong (groups of three: 2,000,000, not 2,0000), its decimal
/// mark, an exponent (2e6, 1.5E-3). Errors say why in words, quoting what was typed: "'abc' is not a number",
/// "'2,0000': a thousands separator belongs between groups of three digits".
Result<double> parseTypedNumber(std::string_view text, const NumberSyntax& syntax = {});

/// parseTypedNumber, then within the bounds: "1e9 is more than the most this box takes, 1,000" / "-1 is less than
/// the least, 0.001" / "0 must be above 0". `format` writes the bounds for the message.
Result<double> checkTypedNumber(std::string_view text, const NumberBounds& bounds, const NumberSyntax& syntax = {});

} // namespace paretoscope
