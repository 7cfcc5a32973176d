// NVML through dlopen: the CUDA toolkit here ships no NVML header or stub, and the program must start where no
// driver is installed. The few types used are declared here with NVML's documented layouts.
#include <cstdlib>
#include <dlfcn.h>

#include "core/live/devices.h"

// NVML's own struct names (nvml.h: typedef struct nvmlMemory_st nvmlMemory_t), so that the function types match
// the library's exactly (UBSan checks calls through function pointers)
struct nvmlMemory_st {
    unsigned long long total, free, used;
};
struct nvmlUtilization_st {
    unsigned int gpu, memory;
};

namespace paretoscope {

namespace {

using nvmlReturn = int;
using nvmlDevice = void*;
using NvmlMemory = nvmlMemory_st;
using NvmlUtilization = nvmlUtilization_st;
constexpr int nvmlClockSm = 1;

class NvmlBackend final : public GpuBackend {
public:
    explicit NvmlBackend(void* lib)
        : m_lib(lib)
    {
    }
    ~NvmlBackend() override
    {
        if (shutdown)
            shutdown();
        dlclose(m_lib);
    }
    bool bind(std::string& why)
    {
        auto need = [&](auto& fn, const char* symbol) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(m_lib, symbol));
            if (!fn && why.empty())
                why = std::string("the NVML library has no ") + symbol;
            return fn != nullptr;
        };
        bool ok = need(init, "nvmlInit_v2");
        ok = need(shutdown, "nvmlShutdown") && ok; // each looked up, so `why` names the first one missing
        ok = need(count, "nvmlDeviceGetCount_v2") && ok;
        ok = need(handle, "nvmlDeviceGetHandleByIndex_v2") && ok;
        ok = need(name, "nvmlDeviceGetName") && ok;
        // optional: telemetry degrades to what is there
        capability = reinterpret_cast<decltype(capability)>(dlsym(m_lib, "nvmlDeviceGetCudaComputeCapability"));
        power = reinterpret_cast<decltype(power)>(dlsym(m_lib, "nvmlDeviceGetPowerUsage"));
        energy = reinterpret_cast<decltype(energy)>(dlsym(m_lib, "nvmlDeviceGetTotalEnergyConsumption"));
        clock = reinterpret_cast<decltype(clock)>(dlsym(m_lib, "nvmlDeviceGetClockInfo"));
        memory = reinterpret_cast<decltype(memory)>(dlsym(m_lib, "nvmlDeviceGetMemoryInfo"));
        utilization = reinterpret_cast<decltype(utilization)>(dlsym(m_lib, "nvmlDeviceGetUtilizationRates"));
        if (!ok) {
            shutdown = nullptr; // never initialised
            return false;
        }
        if (int rc = init(); rc != 0) {
            shutdown = nullptr;
            why = "nvmlInit failed (code " + std::to_string(rc) + "): no driver or no permission";
            return false;
        }
        unsigned int n = 0;
        if (count(&n) != 0)
            n = 0;
        for (unsigned int i = 0; i < n; ++i) {
            nvmlDevice dev = nullptr;
            if (handle(i, &dev) != 0)
                continue;
            GpuDevice d;
            d.vendor = "nvidia";
            d.index = static_cast<int>(i);
            char buf[96] = {};
            if (name(dev, buf, sizeof buf) == 0)
                d.name = buf;
            int major = 0, minor = 0;
            if (capability && capability(dev, &major, &minor) == 0)
                d.architecture = "sm_" + std::to_string(major * 10 + minor);
            NvmlMemory mem {};
            if (memory && memory(dev, &mem) == 0)
                d.memoryBytes = mem.total;
            d.hardware = hardwareKeyFor(d.name, d.architecture);
            m_devices.push_back(d);
            m_handles.push_back(dev);
        }
        return true;
    }
    std::vector<GpuDevice> devices() override { return m_devices; }
    GpuSample sample(int index) override
    {
        GpuSample s;
        if (index < 0 || index >= static_cast<int>(m_handles.size()))
            return s;
        nvmlDevice dev = m_handles[static_cast<std::size_t>(index)];
        unsigned int mw = 0, mhz = 0;
        unsigned long long mj = 0;
        NvmlMemory mem {};
        NvmlUtilization u {};
        if (power && power(dev, &mw) == 0)
            s.powerW = mw / 1000.0;
        if (energy && energy(dev, &mj) == 0)
            s.energyJ = static_cast<double>(mj) / 1000.0;
        if (clock && clock(dev, nvmlClockSm, &mhz) == 0)
            s.smClockMhz = mhz;
        if (memory && memory(dev, &mem) == 0)
            s.memoryUsedBytes = static_cast<double>(mem.used);
        if (utilization && utilization(dev, &u) == 0)
            s.utilization = u.gpu;
        return s;
    }

private:
    void* m_lib;
    std::vector<GpuDevice> m_devices;
    std::vector<nvmlDevice> m_handles;
    nvmlReturn (*init)() = nullptr;
    nvmlReturn (*shutdown)() = nullptr;
    nvmlReturn (*count)(unsigned int*) = nullptr;
    nvmlReturn (*handle)(unsigned int, nvmlDevice*) = nullptr;
    nvmlReturn (*name)(nvmlDevice, char*, unsigned int) = nullptr;
    nvmlReturn (*capability)(nvmlDevice, int*, int*) = nullptr;
    nvmlReturn (*power)(nvmlDevice, unsigned int*) = nullptr;
    nvmlReturn (*energy)(nvmlDevice, unsigned long long*) = nullptr;
    nvmlReturn (*clock)(nvmlDevice, int, unsigned int*) = nullptr;
    nvmlReturn (*memory)(nvmlDevice, NvmlMemory*) = nullptr;
    nvmlReturn (*utilization)(nvmlDevice, NvmlUtilization*) = nullptr;
};

} // namespace

std::unique_ptr<GpuBackend> loadNvml(std::string& why)
{
    const char* over = std::getenv("PARETOSCOPE_NVML_LIBRARY");
    const char* file = over && *over ? over : "libnvidia-ml.so.1";
    void* lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        why = std::string("NVML not found (") + file + ")";
        return nullptr;
    }
    why.clear();
    auto b = std::make_unique<NvmlBackend>(lib);
    if (!b->bind(why))
        return nullptr;
    return b;
}

} // namespace paretoscope
