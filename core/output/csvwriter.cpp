#include "core/output/csvwriter.h"

#include <charconv>
#include <cmath>

namespace paretoscope {

std::string csvNumber(double v)
{
    if (!std::isfinite(v))
        return {};
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string csvText(std::string_view text)
{
    std::string t(text);
    if (!t.empty() && (t[0] == '=' || t[0] == '+' || t[0] == '-' || t[0] == '@' || t[0] == '\t' || t[0] == '\r'))
        t.insert(t.begin(), '\'');
    if (t.find_first_of(",\"\n\r") == std::string::npos)
        return t;
    std::string q = "\"";
    for (char c : t) {
        if (c == '"')
            q += '"';
        q += c;
    }
    return q + "\"";
}

std::string csvCell(const CellValue& v)
{
    if (const auto* s = std::get_if<std::string>(&v))
        return csvText(*s);
    if (const auto* i = std::get_if<long long>(&v))
        return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&v))
        return csvNumber(*d);
    if (const auto* b = std::get_if<bool>(&v))
        return *b ? "true" : "false";
    return {};
}

std::string csvLine(const std::vector<std::string>& cells)
{
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i)
            line += ',';
        line += cells[i];
    }
    return line + "\n";
}

} // namespace paretoscope
