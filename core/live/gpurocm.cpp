// ROCm SMI through dlopen (librocm_smi64 of ROCm 5 and 6): the program must start where ROCm is not installed.
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>

#include "core/live/devices.h"

namespace paretoscope {

namespace {

using rsmiStatus = int;
constexpr int rsmiMemTypeVram = 0;

class RocmBackend final : public GpuBackend {
public:
    explicit RocmBackend(void* lib)
        : m_lib(lib)
    {
    }
    ~RocmBackend() override
    {
        if (shutdown)
            shutdown();
        dlclose(m_lib);
    }
    bool bind(std::string& why)
    {
        init = reinterpret_cast<decltype(init)>(dlsym(m_lib, "rsmi_init"));
        shutdown = reinterpret_cast<decltype(shutdown)>(dlsym(m_lib, "rsmi_shut_down"));
        count = reinterpret_cast<decltype(count)>(dlsym(m_lib, "rsmi_num_monitor_devices"));
        name = reinterpret_cast<decltype(name)>(dlsym(m_lib, "rsmi_dev_name_get"));
        if (!init || !shutdown || !count || !name) {
            shutdown = nullptr;
            why = "the ROCm SMI library lacks rsmi_init, rsmi_num_monitor_devices or rsmi_dev_name_get";
            return false;
        }
        power = reinterpret_cast<decltype(power)>(dlsym(m_lib, "rsmi_dev_power_get"));
        socketPower = reinterpret_cast<decltype(socketPower)>(dlsym(m_lib, "rsmi_dev_current_socket_power_get"));
        energy = reinterpret_cast<decltype(energy)>(dlsym(m_lib, "rsmi_dev_energy_count_get"));
        memTotal = reinterpret_cast<decltype(memTotal)>(dlsym(m_lib, "rsmi_dev_memory_total_get"));
        memUsed = reinterpret_cast<decltype(memUsed)>(dlsym(m_lib, "rsmi_dev_memory_usage_get"));
        busy = reinterpret_cast<decltype(busy)>(dlsym(m_lib, "rsmi_dev_busy_percent_get"));
        if (int rc = init(0); rc != 0) {
            shutdown = nullptr;
            why = "rsmi_init failed (code " + std::to_string(rc) + "): no amdgpu driver or no permission";
            return false;
        }
        std::uint32_t n = 0;
        if (count(&n) != 0)
            n = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            GpuDevice d;
            d.vendor = "amd";
            d.index = static_cast<int>(i);
            char buf[256] = {};
            if (name(i, buf, sizeof buf) == 0)
                d.name = buf;
            std::uint64_t total = 0;
            if (memTotal && memTotal(i, rsmiMemTypeVram, &total) == 0)
                d.memoryBytes = total;
            d.hardware = hardwareKeyFor(d.name, d.architecture);
            if (d.hardware == "mi325x" || d.hardware == "mi300x")
                d.architecture = "gfx942"; // CDNA3
            else if (d.hardware == "mi355x" || d.hardware == "mi350x")
                d.architecture = "gfx950"; // CDNA4
            m_devices.push_back(d);
        }
        return true;
    }
    std::vector<GpuDevice> devices() override { return m_devices; }
    GpuSample sample(int index) override
    {
        GpuSample s;
        if (index < 0 || index >= static_cast<int>(m_devices.size()))
            return s;
        auto dv = static_cast<std::uint32_t>(index);
        std::uint64_t uw = 0, counter = 0, timestamp = 0, used = 0;
        int type = 0;
        float resolution = 0;
        std::uint32_t percent = 0;
        // the current power where the library has it, else the socket's average (older ROCm SMI), both in µW
        if ((power && power(dv, &uw, &type) == 0) || (socketPower && socketPower(dv, &uw) == 0))
            s.powerW = static_cast<double>(uw) / 1e6;
        if (energy && energy(dv, &counter, &resolution, &timestamp) == 0)
            s.energyJ = static_cast<double>(counter) * static_cast<double>(resolution) / 1e6; // µJ -> J
        if (memUsed && memUsed(dv, rsmiMemTypeVram, &used) == 0)
            s.memoryUsedBytes = static_cast<double>(used);
        if (busy && busy(dv, &percent) == 0)
            s.utilization = percent;
        return s;
    }

private:
    void* m_lib;
    std::vector<GpuDevice> m_devices;
    rsmiStatus (*init)(std::uint64_t) = nullptr;
    rsmiStatus (*shutdown)() = nullptr;
    rsmiStatus (*count)(std::uint32_t*) = nullptr;
    rsmiStatus (*name)(std::uint32_t, char*, std::size_t) = nullptr;
    rsmiStatus (*power)(std::uint32_t, std::uint64_t*, int*) = nullptr;
    rsmiStatus (*socketPower)(std::uint32_t, std::uint64_t*) = nullptr;
    rsmiStatus (*energy)(std::uint32_t, std::uint64_t*, float*, std::uint64_t*) = nullptr;
    rsmiStatus (*memTotal)(std::uint32_t, int, std::uint64_t*) = nullptr;
    rsmiStatus (*memUsed)(std::uint32_t, int, std::uint64_t*) = nullptr;
    rsmiStatus (*busy)(std::uint32_t, std::uint32_t*) = nullptr;
};

} // namespace

std::unique_ptr<GpuBackend> loadRocmSmi(std::string& why)
{
    const char* over = std::getenv("PARETOSCOPE_ROCM_SMI_LIBRARY");
    std::vector<std::string> names;
    if (over && *over)
        names.push_back(over);
    else
        for (const char* n :
            { "librocm_smi64.so.7", "librocm_smi64.so.6", "librocm_smi64.so.5", "librocm_smi64.so.1" }) {
            names.push_back(n);
            names.push_back(std::string("/opt/rocm/lib/") + n);
        }
    for (const std::string& n : names) {
        void* lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            continue;
        why.clear();
        auto b = std::make_unique<RocmBackend>(lib);
        if (b->bind(why))
            return b;
        return nullptr;
    }
    why = "ROCm SMI not found (librocm_smi64.so.7, .6, .5, .1)";
    return nullptr;
}

} // namespace paretoscope
