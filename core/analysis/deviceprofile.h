#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/analysis/speedoflight.h"
#include "core/model/result.h"

namespace paretoscope {

/// What paretoscope-probe measured on a device: copy bandwidth and GEMM rates. Saved per hardware key, it replaces
/// the datasheet in the speed of light and is shown in the session dialog.
struct DeviceProfile {
    std::string hardware; ///< b300, h200 ...
    std::string deviceName;
    std::string measuredAt; ///< UTC, ISO 8601
    double copyBytesPerS = 0;
    std::map<std::string, double> gemmFlops; ///< precision -> FLOP/s
};

/// $XDG_DATA_HOME/paretoscope/device-profiles (XDG_DATA_HOME defaults to ~/.local/share).
std::string deviceProfileDir();
/// The profile of the probe's JSON output (see paretoscope-probe); the hardware key comes from the device's name.
Result<DeviceProfile> profileFromProbeJson(const std::string& json, const std::string& measuredAt);
Status saveDeviceProfile(const DeviceProfile& profile, const std::string& dir = deviceProfileDir());
/// The saved profile of a hardware, if any (a damaged file is ignored: the datasheet stays).
std::optional<DeviceProfile> loadDeviceProfile(
    const std::string& hardware, const std::string& dir = deviceProfileDir());
/// The datasheet with the measured values in place of the vendor's: bandwidth, and the GEMM rate of each precision
/// measured.
DeviceSpec applyProfile(DeviceSpec spec, const DeviceProfile& profile);
/// One line for the session dialog: "B300 measured 2026-11-29: 7.4 TB/s copy, fp4 12.1 PFLOP/s".
std::string profileSummary(const DeviceProfile& profile);

} // namespace paretoscope
