#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/hardware.h"

namespace paretoscope {

/// A GPU as the vendor's management library describes it.
struct GpuDevice {
    std::string vendor; ///< "nvidia" or "amd"
    int index = 0; ///< the library's index
    std::string name; ///< e.g. "NVIDIA B300 SXM6 AC", "AMD Instinct MI325X"
    std::uint64_t memoryBytes = 0;
    std::string architecture; ///< "sm_103", "sm_90", "gfx942" where known
    std::string hardware; ///< Paretoscope's key: b300, mi325x, h200 ... ; empty when not recognised
};

/// One reading of a device. Missing values stay empty (not every library or device reports everything).
struct GpuSample {
    std::optional<double> powerW;
    std::optional<double> energyJ; ///< the device's cumulative counter
    std::optional<double> smClockMhz;
    std::optional<double> memoryUsedBytes;
    std::optional<double> utilization; ///< percent
};

/// A vendor library loaded with dlopen.
class GpuBackend {
public:
    virtual ~GpuBackend() = default;
    virtual std::vector<GpuDevice> devices() = 0;
    virtual GpuSample sample(int index) = 0;
};

/// NVML (libnvidia-ml.so.1), or empty with the reason in `why`. PARETOSCOPE_NVML_LIBRARY names another file.
std::unique_ptr<GpuBackend> loadNvml(std::string& why);
/// ROCm SMI (librocm_smi64.so.7, .6, .5, .1), or empty with the reason. PARETOSCOPE_ROCM_SMI_LIBRARY overrides.
std::unique_ptr<GpuBackend> loadRocmSmi(std::string& why);

/// What was found: the backends that loaded, their devices, and a line for each one that did not.
struct DeviceDiscovery {
    /// nvidia first, then amd; shared with the samplers, whose thread may outlive a session in a read that hangs
    std::vector<std::shared_ptr<GpuBackend>> backends;
    std::vector<GpuDevice> devices;
    std::vector<std::string> notes;
    std::shared_ptr<GpuBackend> backendFor(const GpuDevice& d);
};

/// Looks for NVIDIA and AMD devices; the program works where neither library exists.
DeviceDiscovery discoverDevices();

} // namespace paretoscope
