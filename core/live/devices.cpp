#include "devices.h"

#include <algorithm>
#include <cctype>

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

GpuBackend* DeviceDiscovery::backendFor(const GpuDevice& d)
{
    for (auto& b : backends)
        for (const GpuDevice& own : b->devices())
            if (own.vendor == d.vendor && own.index == d.index)
                return b.get();
    return nullptr;
}

DeviceDiscovery discoverDevices()
{
    DeviceDiscovery d;
    std::string why;
    if (auto nv = loadNvml(why))
        d.backends.push_back(std::move(nv));
    else
        d.notes.push_back("NVIDIA: " + why);
    if (auto amd = loadRocmSmi(why))
        d.backends.push_back(std::move(amd));
    else
        d.notes.push_back("AMD: " + why);
    for (auto& b : d.backends)
        for (GpuDevice& dev : b->devices())
            d.devices.push_back(dev);
    return d;
}

} // namespace paretoscope
