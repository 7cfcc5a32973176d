#include "core/analysis/numberformat.h"

#include <cmath>
#include <cstdio>

namespace paretoscope {

std::string money(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "$%.3f", v);
    return buf;
}

std::string withThousands(double v, int decimals)
{
    if (!std::isfinite(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::abs(v));
    const std::string digits(buf);
    const std::size_t dot = digits.find('.');
    const std::size_t intEnd = dot == std::string::npos ? digits.size() : dot;
    std::string out = v < 0 ? "-" : "";
    for (std::size_t k = 0; k < intEnd; ++k) {
        if (k > 0 && (intEnd - k) % 3 == 0)
            out += ',';
        out += digits[k];
    }
    out.append(digits, intEnd);
    return out;
}

} // namespace paretoscope
