#pragma once

#include <optional>
#include <string>

namespace paretoscope {

/// What the device and the engine reported during a level (empty where nothing was sampled).
struct LevelTelemetry {
    int samples = 0;
    std::optional<double> coverage; ///< share of the level the device samples cover; empty when no device is sampled
    std::optional<double> avgPowerW; ///< summed over the session's GPUs
    std::optional<double> energyJ; ///< from the energy counters where present, else power x time
    std::optional<double> avgSmClockMhz;
    std::optional<double> avgUtilization; ///< percent
    std::optional<double> maxMemoryUsedGiB;
    std::string engineMetricsJson; ///< scraped from the engine's /metrics: gauges averaged, counters as deltas
};

/// Samples what a level used; the sweep calls begin() before a level's measured requests and end() after.
class LevelSampler {
public:
    virtual ~LevelSampler() = default;
    virtual void begin() = 0;
    virtual LevelTelemetry end() = 0;
};

} // namespace paretoscope
