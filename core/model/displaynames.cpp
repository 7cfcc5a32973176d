#include "core/model/displaynames.h"

#include <cctype>

#include "core/model/engine.h"

namespace paretoscope {
namespace {

std::string upper(std::string s)
{
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

std::string hardwareDisplayName(const std::string& hardware)
{
    if (hardware == "sim-fixed")
        return "Emulator (fixed timing, simulated)";
    if (hardware.size() > 4 && hardware.ends_with("-sim"))
        return upper(hardware.substr(0, hardware.size() - 4)) + " (simulated)";
    return upper(hardware);
}

std::string precisionDisplayName(const std::string& precision)
{
    return upper(precision);
}

std::string groupDisplayName(const GroupKey& key, bool withHardware)
{
    std::string s = withHardware ? hardwareDisplayName(key.hardware) + " · " : std::string();
    s += engineDisplayName(key.engine) + " · " + precisionDisplayName(key.precision);
    if (!key.specDecoding.empty() && key.specDecoding != "none")
        s += " · " + upper(key.specDecoding);
    return s;
}

} // namespace paretoscope
