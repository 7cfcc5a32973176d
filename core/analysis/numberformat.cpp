#include "core/analysis/numberformat.h"

#include <charconv>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace paretoscope {

// Beyond this a number has more digits than any column shows: it is written with an exponent.
constexpr double kLargestPlain = 1e15;

std::string money(double v)
{
    char buf[64];
    if (!std::isfinite(v))
        return "-";
    std::snprintf(buf, sizeof buf, std::abs(v) >= kLargestPlain ? "$%.3e" : "$%.3f", v);
    return buf;
}

std::string shortNumber(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::size_t displayWidth(std::string_view s)
{
    // characters, not bytes: "±" and "·" are two bytes of UTF-8 each and one column wide
    std::size_t n = 0;
    for (char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

std::string padded(const std::string& s, std::size_t w, bool right)
{
    const std::size_t have = displayWidth(s);
    if (have >= w)
        return s;
    return right ? std::string(w - have, ' ') + s : s + std::string(w - have, ' ');
}

std::string powerText(double kw)
{
    if (!std::isfinite(kw))
        return "-";
    return kw < 1000 ? withThousands(kw, kw < 10 ? 2 : 1) + " kW" : withThousands(kw / 1000, 2) + " MW";
}

std::string withThousands(double v, int decimals)
{
    if (!std::isfinite(v))
        return "-";
    char buf[64];
    if (std::abs(v) >= kLargestPlain) {
        std::snprintf(buf, sizeof buf, "%.3e", v);
        return buf;
    }
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

std::string withThousands(const std::optional<double>& v, int decimals)
{
    return v ? withThousands(*v, decimals) : "-";
}

std::string withSignificant(double v, int digits)
{
    if (!std::isfinite(v))
        return "-";
    char buf[64];
    if (v == 0 || std::abs(v) >= 1e6)
        return withThousands(v);
    if (std::abs(v) < 1e-6) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        return buf;
    }
    const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(v))));
    const int decimals = std::max(0, digits - 1 - magnitude);
    if (decimals == 0)
        return withThousands(v);
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string exactNumber(double v)
{
    char buf[400]; // fixed notation of any double fits
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

} // namespace paretoscope
