#include "core/live/telemetrysampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/import/httpfetch.h"
#include "core/live/prometheus.h"

namespace paretoscope {

namespace {

double monotonic()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const char* gauges[] = { "running", "waiting", "kv_cache_usage" };
const char* counters[] = { "prompt_tokens", "generation_tokens", "prefix_queries", "prefix_hits", "preemptions" };

} // namespace

TelemetrySampler::TelemetrySampler(
    GpuBackend* backend, std::vector<int> devices, std::string metricsUrl, std::string apiKey, double intervalSeconds)
    : m_backend(backend)
    , m_devices(std::move(devices))
    , m_metricsUrl(std::move(metricsUrl))
    , m_apiKey(std::move(apiKey))
    , m_interval(intervalSeconds)
{
    if (!m_backend)
        m_devices.clear();
}

TelemetrySampler::~TelemetrySampler()
{
    if (!m_thread.joinable())
        return;
    try {
        end();
    } catch (...) { // a destructor must not throw: the last sample and scrape that end() takes are dropped
    }
}

void TelemetrySampler::begin()
{
    if (m_thread.joinable())
        end();
    m_samples = m_scrapes = m_powerN = m_clockN = m_utilN = 0;
    m_covered = 0;
    m_lastAnswered = NAN;
    m_powerSum = m_clockSum = m_utilSum = m_memMax = 0;
    m_energyFirst.assign(m_devices.size(), NAN);
    m_energyLast.assign(m_devices.size(), NAN);
    m_energyFirstAt.assign(m_devices.size(), 0);
    m_energyLastAt.assign(m_devices.size(), 0);
    m_firstScrape.clear();
    m_lastScrape.clear();
    m_gaugeSum.clear();
    m_gaugeMax.clear();
    m_start = m_last = monotonic();
    sampleOnce(m_start);
    scrapeOnce();
    m_running = true;
    m_thread = std::thread([this] { loop(); });
}

void TelemetrySampler::loop()
{
    int tick = 0;
    // on a fixed schedule (a wait for the interval after each reading would drift by the reading's own time), the
    // predicate keeping a spurious wake-up from taking a reading early
    const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(m_interval));
    auto next = std::chrono::steady_clock::now();
    std::unique_lock lock(m_mutex);
    while (true) {
        next += period;
        if (m_wake.wait_until(lock, next, [this] { return !m_running; }))
            break;
        lock.unlock();
        sampleOnce(monotonic());
        // a reading slower than the period: the next one follows it, rather than a burst catching up
        next = std::max(next, std::chrono::steady_clock::now() - period);
        // the engine's /metrics once a second: it is text to parse, and gauges move slowly
        if (++tick * m_interval >= 1.0) {
            tick = 0;
            scrapeOnce();
        }
        lock.lock();
    }
}

void TelemetrySampler::sampleOnce(double at)
{
    if (m_devices.empty())
        return;
    double power = 0, clock = 0, util = 0, mem = 0;
    int havePower = 0, haveClock = 0, haveUtil = 0, answered = 0;
    for (std::size_t i = 0; i < m_devices.size(); ++i) {
        GpuSample s = m_backend->sample(m_devices[i]);
        if (s.powerW || s.energyJ || s.smClockMhz || s.memoryUsedBytes || s.utilization)
            ++answered;
        if (s.powerW) {
            power += *s.powerW;
            ++havePower;
        }
        if (s.smClockMhz) {
            clock += *s.smClockMhz;
            ++haveClock;
        }
        if (s.utilization) {
            util += *s.utilization;
            ++haveUtil;
        }
        mem += s.memoryUsedBytes.value_or(0);
        if (s.energyJ) {
            if (std::isnan(m_energyFirst[i])) {
                m_energyFirst[i] = *s.energyJ;
                m_energyFirstAt[i] = at;
            }
            m_energyLast[i] = *s.energyJ;
            m_energyLastAt[i] = at;
        }
    }
    m_last = at;
    // a reading that a device did not answer (a GPU lost, a driver gone) is no sample: the level has a gap there
    if (answered < static_cast<int>(m_devices.size()))
        return;
    ++m_samples;
    // the time between two answered readings counts as covered when they are at most two periods apart; a stretch
    // of unanswered or slow readings does not
    if (!std::isnan(m_lastAnswered) && at - m_lastAnswered <= 2 * m_interval)
        m_covered += at - m_lastAnswered;
    m_lastAnswered = at;
    if (havePower == static_cast<int>(m_devices.size())) {
        m_powerSum += power; // the deployment's power: every GPU of the session together
        ++m_powerN;
    }
    if (haveClock) {
        m_clockSum += clock / haveClock;
        ++m_clockN;
    }
    if (haveUtil) {
        m_utilSum += util / haveUtil;
        ++m_utilN;
    }
    m_memMax = std::max(m_memMax, mem);
}

void TelemetrySampler::scrapeOnce()
{
    if (m_metricsUrl.empty())
        return;
    HttpOptions o;
    o.connectTimeoutMs = 1000;
    o.totalTimeoutMs = 2000;
    o.maxBytes = 8u << 20;
    if (!m_apiKey.empty())
        o.headers.push_back("Authorization: Bearer " + m_apiKey);
    auto body = httpGet(m_metricsUrl, o);
    if (!body)
        return; // telemetry never fails a level
    auto state = engineState(parsePrometheusText(*body));
    if (state.empty())
        return;
    if (m_scrapes == 0)
        m_firstScrape = state;
    m_lastScrape = state;
    for (const char* g : gauges)
        if (auto it = state.find(g); it != state.end()) {
            m_gaugeSum[g] += it->second;
            m_gaugeMax[g] = std::max(m_gaugeMax[g], it->second);
        }
    ++m_scrapes;
}

LevelTelemetry TelemetrySampler::end()
{
    {
        std::lock_guard lock(m_mutex);
        m_running = false;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    sampleOnce(monotonic());
    scrapeOnce();
    LevelTelemetry t;
    t.samples = m_samples;
    double seconds = m_last - m_start;
    if (!m_devices.empty() && seconds > 0)
        t.coverage = m_covered / seconds;
    if (m_powerN > 0)
        t.avgPowerW = m_powerSum / m_powerN;
    bool counters_ = !m_devices.empty();
    double watts = 0;
    for (std::size_t i = 0; i < m_devices.size(); ++i) {
        const double span = m_energyLastAt[i] - m_energyFirstAt[i];
        if (std::isnan(m_energyFirst[i]) || std::isnan(m_energyLast[i]) || m_energyLast[i] < m_energyFirst[i]
            || span <= 0)
            counters_ = false;
        else // over the span the counter was read: a device that stopped answering part-way is not idle after it
            watts += (m_energyLast[i] - m_energyFirst[i]) / span;
    }
    if (counters_ && seconds > 0) {
        t.avgPowerW = watts; // the counter integrates what sampling could miss
        t.energyJ = watts * seconds; // without gaps, the counters' difference; with them, flagged telemetry-gaps
    } else if (t.avgPowerW && seconds > 0) {
        t.energyJ = *t.avgPowerW * seconds;
    }
    if (m_clockN > 0)
        t.avgSmClockMhz = m_clockSum / m_clockN;
    if (m_utilN > 0)
        t.avgUtilization = m_utilSum / m_utilN;
    if (!m_devices.empty())
        t.maxMemoryUsedGiB = m_memMax / double(1ull << 30);
    if (m_scrapes > 0) {
        nlohmann::json j = { { "scrapes", m_scrapes } };
        for (const char* g : gauges)
            if (m_gaugeSum.count(g)) {
                j[std::string(g) + "_avg"] = m_gaugeSum[g] / m_scrapes;
                j[std::string(g) + "_max"] = m_gaugeMax[g];
            }
        for (const char* c : counters)
            if (m_firstScrape.count(c) && m_lastScrape.count(c))
                j[c] = m_lastScrape[c] - m_firstScrape[c];
        double hits = j.value("prefix_hits", 0.0);
        double queries
            = j.contains("prefix_queries") ? j["prefix_queries"].get<double>() : j.value("prompt_tokens", 0.0);
        if (queries > 0)
            j["prefix_hit_rate"] = hits / queries;
        t.engineMetricsJson = j.dump();
    }
    return t;
}

} // namespace paretoscope

namespace paretoscope {

std::unique_ptr<TelemetrySampler> makeSessionSampler(DeviceDiscovery& discovery, const SessionConfig& config,
    const std::string& devices, const std::string& apiKey, std::string& note)
{
    std::vector<int> wanted;
    for (std::size_t start = 0; start < devices.size();) {
        std::size_t comma = devices.find(',', start);
        std::string part = devices.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!part.empty() && part.find_first_not_of("0123456789") == std::string::npos)
            wanted.push_back(std::stoi(part));
        start = comma == std::string::npos ? devices.size() : comma + 1;
    }
    GpuBackend* backend = nullptr;
    std::vector<int> indices;
    std::string names;
    for (const GpuDevice& d : discovery.devices) {
        if (d.hardware.empty() || d.hardware != config.hardware)
            continue;
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), d.index) == wanted.end())
            continue;
        GpuBackend* b = discovery.backendFor(d);
        if (backend && b != backend)
            continue;
        backend = b;
        indices.push_back(d.index);
        names = d.name;
    }
    if (indices.empty())
        note = "no " + (config.hardware.empty() ? std::string("GPU") : config.hardware)
            + " found on this machine: no power or energy per level (engine metrics are still scraped)";
    else
        note = "sampling " + std::to_string(indices.size()) + " x " + names + " and the engine's /metrics";
    return std::make_unique<TelemetrySampler>(backend, indices, config.endpoint + "/metrics", apiKey);
}

} // namespace paretoscope
