#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/live/devices.h"
#include "core/live/levelsampler.h"
#include "core/live/sessionconfig.h"

namespace paretoscope {

/// Samples the session's GPUs (power, energy counter, SM clock, memory, utilisation) and scrapes the engine's
/// Prometheus /metrics on a thread while a level runs. Either part may be absent: no devices (an endpoint elsewhere,
/// the emulator) or no metrics URL.
class TelemetrySampler final : public LevelSampler {
public:
    TelemetrySampler(GpuBackend* backend, std::vector<int> devices, std::string metricsUrl, std::string apiKey,
        double intervalSeconds = 0.2);
    ~TelemetrySampler() override;
    void begin() override;
    LevelTelemetry end() override;

private:
    void loop();
    void sampleOnce(double at);
    void scrapeOnce();

    GpuBackend* m_backend;
    std::vector<int> m_devices;
    std::string m_metricsUrl, m_apiKey;
    double m_interval;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_running = false;
    // per level
    double m_start = 0, m_last = 0;
    double m_lastAnswered = 0, m_covered = 0; ///< the last reading every device answered; seconds covered so far
    int m_samples = 0, m_scrapes = 0; ///< samples: readings every device answered
    double m_powerSum = 0, m_clockSum = 0, m_utilSum = 0, m_memMax = 0;
    int m_powerN = 0, m_clockN = 0, m_utilN = 0;
    std::vector<double> m_energyFirst, m_energyLast; ///< each device's counter, first and last read in the level
    std::vector<double> m_energyFirstAt, m_energyLastAt; ///< when they were read
    std::map<std::string, double> m_firstScrape, m_lastScrape, m_gaugeSum, m_gaugeMax;
};

} // namespace paretoscope

namespace paretoscope {

/// The sampler of a session: the discovered GPUs whose hardware is the session's (only the indices in `devices`,
/// e.g. "0,1", when given) and the endpoint's /metrics. `note` says what will be sampled.
std::unique_ptr<TelemetrySampler> makeSessionSampler(DeviceDiscovery& discovery, const SessionConfig& config,
    const std::string& devices, const std::string& apiKey, std::string& note);

} // namespace paretoscope
