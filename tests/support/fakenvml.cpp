// A stand-in for libnvidia-ml.so.1 with NVML's C interface, for testing the dlopen binding and the sampler where no
// NVIDIA driver exists: two "NVIDIA B300 SXM6 AC" (compute capability 10.3) drawing 700 W and 750 W, their energy
// counters integrating exactly that over the monotonic clock.
// A fault: PARETOSCOPE_FAKE_NVML_LOST_AFTER=N (read at nvmlInit_v2) makes each device answer its first N power
// readings after init and then fail every reading with NVML_ERROR_GPU_IS_LOST, as a GPU that falls off the bus does.
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {
double now()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
int devices[2] = { 0, 1 };
double watts(void* dev)
{
    return 700 + 50 * *static_cast<int*>(dev);
}
constexpr int kGpuIsLost = 15; // NVML_ERROR_GPU_IS_LOST
long lostAfter = -1; // power readings each device answers; -1: no fault
long powerReads[2] = { 0, 0 };
bool lost(void* dev)
{
    return lostAfter >= 0 && powerReads[*static_cast<int*>(dev)] > lostAfter;
}
} // namespace

struct nvmlMemory_st {
    unsigned long long total, free, used;
};
struct nvmlUtilization_st {
    unsigned int gpu, memory;
};

extern "C" {
int nvmlInit_v2()
{
    const char* n = std::getenv("PARETOSCOPE_FAKE_NVML_LOST_AFTER");
    lostAfter = n && *n ? std::atol(n) : -1;
    powerReads[0] = powerReads[1] = 0;
    return 0;
}
int nvmlShutdown()
{
    return 0;
}
int nvmlDeviceGetCount_v2(unsigned int* n)
{
    *n = 2;
    return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void** dev)
{
    if (i > 1)
        return 2;
    *dev = &devices[i];
    return 0;
}
int nvmlDeviceGetName(void*, char* buf, unsigned int len)
{
    std::strncpy(buf, "NVIDIA B300 SXM6 AC", len);
    return 0;
}
int nvmlDeviceGetCudaComputeCapability(void*, int* major, int* minor)
{
    *major = 10;
    *minor = 3;
    return 0;
}
int nvmlDeviceGetPowerUsage(void* dev, unsigned int* mw)
{
    ++powerReads[*static_cast<int*>(dev)];
    if (lost(dev))
        return kGpuIsLost;
    *mw = static_cast<unsigned int>(watts(dev) * 1000);
    return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(void* dev, unsigned long long* mj)
{
    if (lost(dev))
        return kGpuIsLost;
    *mj = static_cast<unsigned long long>(now() * watts(dev) * 1000);
    return 0;
}
int nvmlDeviceGetClockInfo(void* dev, int type, unsigned int* mhz)
{
    if (lost(dev))
        return kGpuIsLost;
    *mhz = type == 1 ? 1965 : 0;
    return 0;
}
int nvmlDeviceGetMemoryInfo(void* dev, nvmlMemory_st* m)
{
    if (lost(dev))
        return kGpuIsLost;
    m->total = 288ull << 30;
    m->used = 250ull << 30;
    m->free = m->total - m->used;
    return 0;
}
int nvmlDeviceGetUtilizationRates(void* dev, nvmlUtilization_st* u)
{
    if (lost(dev))
        return kGpuIsLost;
    u->gpu = 97;
    u->memory = 60;
    return 0;
}
}
