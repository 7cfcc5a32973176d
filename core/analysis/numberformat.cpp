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
    std::string s(buf);
    std::size_t dot = s.find('.');
    std::size_t intEnd = dot == std::string::npos ? s.size() : dot;
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(intEnd) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return (v < 0 ? "-" : "") + s;
}

} // namespace paretoscope
