#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/live/devices.h"
#include "core/live/levelsampler.h"
#include "core/live/sessionconfig.h"

namespace paretoscope {

/// The seconds two answered readings `gap` apart cover at one reading each `period`: the gap less each period whose
/// reading is missing between them (a reading lost, or one device read that took that long), so that a late wake-up
/// loses nothing and a missed reading loses its period; never more than the gap.
double coveredBetween(double gap, double period);

/// Samples the session's GPUs (power, energy counter, SM clock, memory, utilisation) and scrapes the engine's
/// Prometheus /metrics on a thread while a level runs. Either part may be absent: no devices (an endpoint elsewhere,
/// the emulator) or no metrics URL. Every reading is taken on that thread: a device read that hangs (a driver in
/// trouble) cannot hold the session. end() waits for the last reading a bounded time, then gives up on the thread,
/// which keeps what it reads from (the backend, the level's readings) alive until its read returns; the level keeps
/// what was read before, and until the device answers again later levels sample nothing from it (coverage 0).
class TelemetrySampler final : public LevelSampler {
public:
    TelemetrySampler(std::shared_ptr<GpuBackend> backend, std::vector<int> devices, std::string metricsUrl,
        std::string apiKey, double intervalSeconds = 0.2);
    ~TelemetrySampler() override;
    void begin() override;
    LevelTelemetry end() override;
    /// How long end() waits for the last reading before it gives up on the thread.
    double giveUpAfterSeconds() const;

    struct Level; ///< one level's readings, shared with the thread that takes them

private:
    std::shared_ptr<GpuBackend> m_backend;
    std::vector<int> m_devices;
    std::string m_metricsUrl, m_apiKey;
    double m_interval;
    std::thread m_thread;
    std::shared_ptr<Level> m_level;
    std::vector<std::shared_ptr<Level>> m_hung; ///< levels whose thread was given up on, still in a device read
};

} // namespace paretoscope

namespace paretoscope {

/// The sampler of a session: the discovered GPUs whose hardware is the session's (only the indices in `devices`,
/// e.g. "0,1", when given) and the endpoint's /metrics. `note` says what will be sampled.
std::unique_ptr<TelemetrySampler> makeSessionSampler(DeviceDiscovery& discovery, const SessionConfig& config,
    const std::string& devices, const std::string& apiKey, std::string& note);

} // namespace paretoscope
