#include "core/model/asciitext.h"

namespace paretoscope {

std::string asciiLower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string joinedWith(const std::vector<std::string>& items, std::string_view separator)
{
    std::string out;
    for (const std::string& item : items) {
        if (&item != items.data())
            out += separator;
        out += item;
    }
    return out;
}

} // namespace paretoscope
