// A stand-in for librocm_smi64 with ROCm SMI's C interface: one "AMD Instinct MI325X" drawing 750 W (reported in
// microwatts), its energy counter in units of 15.3 microjoules, 256 GB of VRAM.
#include <cstdint>
#include <cstring>
#include <ctime>

namespace {
double now()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
} // namespace

extern "C" {
int rsmi_init(std::uint64_t)
{
    return 0;
}
int rsmi_shut_down()
{
    return 0;
}
int rsmi_num_monitor_devices(std::uint32_t* n)
{
    *n = 1;
    return 0;
}
int rsmi_dev_name_get(std::uint32_t, char* buf, std::size_t len)
{
    std::strncpy(buf, "AMD Instinct MI325X", len);
    return 0;
}
int rsmi_dev_power_get(std::uint32_t, std::uint64_t* uw, int* type)
{
    *uw = 750'000'000;
    *type = 0;
    return 0;
}
int rsmi_dev_energy_count_get(std::uint32_t, std::uint64_t* counter, float* resolution, std::uint64_t* ts)
{
    *resolution = 15.3f;
    *counter = static_cast<std::uint64_t>(now() * 750e6 / 15.3);
    *ts = static_cast<std::uint64_t>(now() * 1e9);
    return 0;
}
int rsmi_dev_memory_total_get(std::uint32_t, int, std::uint64_t* total)
{
    *total = 256ull * 1000 * 1000 * 1000;
    return 0;
}
int rsmi_dev_memory_usage_get(std::uint32_t, int, std::uint64_t* used)
{
    *used = 200ull * 1000 * 1000 * 1000;
    return 0;
}
int rsmi_dev_busy_percent_get(std::uint32_t, std::uint32_t* p)
{
    *p = 88;
    return 0;
}
}
