#include "core/model/hardware.h"

#include <cctype>
#include <utility>

namespace paretoscope {

std::string hardwareKeyFor(const std::string& name, const std::string& architecture)
{
    std::string upper = name;
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // the longest names first, so that "GB300" is not read as "B300" and "MI325X" not as "MI325"
    static const std::pair<const char*, const char*> known[] = { { "GB300", "gb300" }, { "GB200", "gb200" },
        { "B300", "b300" }, { "B200", "b200" }, { "H200", "h200" }, { "H100", "h100" }, { "MI355X", "mi355x" },
        { "MI350X", "mi350x" }, { "MI325X", "mi325x" }, { "MI300X", "mi300x" } };
    for (auto [needle, key] : known)
        if (upper.find(needle) != std::string::npos)
            return key;
    (void)architecture;
    return {};
}

std::string normalizedKey(std::string_view name)
{
    const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!name.empty() && space(name.front()))
        name.remove_prefix(1);
    while (!name.empty() && space(name.back()))
        name.remove_suffix(1);
    std::string out(name);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace paretoscope
