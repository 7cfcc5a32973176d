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

std::string specDecodingDisplayName(const std::string& specDecoding)
{
    return specDecoding.empty() || specDecoding == "none" ? std::string() : upper(specDecoding);
}

std::string precisionWithSpecDecoding(const GroupKey& key)
{
    const std::string spec = specDecodingDisplayName(key.specDecoding);
    return precisionDisplayName(key.precision) + (spec.empty() ? "" : " · " + spec);
}

std::string groupDisplayName(const GroupKey& key, bool withHardware)
{
    std::string s = withHardware ? hardwareDisplayName(key.hardware) + " · " : std::string();
    return s + engineDisplayName(key.engine) + " · " + precisionWithSpecDecoding(key);
}

} // namespace paretoscope
