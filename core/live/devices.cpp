#include "core/live/devices.h"

#include <algorithm>
#include <cctype>

namespace paretoscope {

std::shared_ptr<GpuBackend> DeviceDiscovery::backendFor(const GpuDevice& d)
{
    for (auto& b : backends)
        for (const GpuDevice& own : b->devices())
            if (own.vendor == d.vendor && own.index == d.index)
                return b;
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
