#include "core/live/telemetrysampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "core/import/httpfetch.h"
#include "core/live/prometheus.h"
#include "core/model/outsidejson.h"

namespace paretoscope {

namespace {

double monotonic()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const char* gauges[] = { "running", "waiting", "kv_cache_usage" };
const char* counters[] = { "prompt_tokens", "generation_tokens", "prefix_queries", "prefix_hits", "preemptions" };

} // namespace

double coveredBetween(double gap, double period)
{
    const double missed = std::max(0.0, std::round(gap / period) - 1);
    return std::max(0.0, gap - missed * period);
}

struct TelemetrySampler::Level {
    std::mutex mutex;
    std::condition_variable wake, done;
    bool running = true, finished = false, givenUp = false;
    bool devices = true; ///< false: a level before is still in a device read, so this one reads none
    double start = 0, last = 0;
    double lastAnswered = NAN, covered = 0; ///< the last reading every device answered; seconds covered so far
    int samples = 0, scrapes = 0; ///< samples: readings every device answered
    double powerSum = 0, clockSum = 0, utilSum = 0, memMax = 0;
    int powerN = 0, clockN = 0, utilN = 0;
    std::vector<double> energyFirst, energyLast; ///< each device's counter, first and last read in the level
    std::vector<double> energyFirstAt, energyLastAt; ///< when they were read
    std::map<std::string, double> firstScrape, lastScrape, gaugeSum, gaugeMax;
};

namespace {

struct Source {
    std::shared_ptr<GpuBackend> backend;
    std::vector<int> devices;
    std::string metricsUrl, apiKey;
    double interval;
};

// One reading of every device, taken without the level's lock (a read may be slow) and folded in under it.
void sampleOnce(const Source& src, TelemetrySampler::Level& l, double at)
{
    if (src.devices.empty() || !l.devices)
        return;
    std::vector<GpuSample> read;
    std::vector<double> readAt; // each device's read, when its energy counter was read
    for (int d : src.devices) {
        read.push_back(src.backend->sample(d));
        readAt.push_back(monotonic());
    }
    std::lock_guard lock(l.mutex);
    if (l.givenUp)
        return;
    double power = 0, clock = 0, util = 0, mem = 0;
    int havePower = 0, haveClock = 0, haveUtil = 0, answered = 0;
    for (std::size_t i = 0; i < read.size(); ++i) {
        const GpuSample& s = read[i];
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
            if (std::isnan(l.energyFirst[i])) {
                l.energyFirst[i] = *s.energyJ;
                l.energyFirstAt[i] = readAt[i];
            }
            l.energyLast[i] = *s.energyJ;
            l.energyLastAt[i] = readAt[i];
        }
    }
    l.last = at;
    // a reading that a device did not answer (a GPU lost, a driver gone) is no sample: the level has a gap there
    if (answered < static_cast<int>(read.size()))
        return;
    ++l.samples;
    if (!std::isnan(l.lastAnswered))
        l.covered += coveredBetween(at - l.lastAnswered, src.interval);
    l.lastAnswered = at;
    if (havePower == static_cast<int>(read.size())) {
        l.powerSum += power; // the deployment's power: every GPU of the session together
        ++l.powerN;
    }
    if (haveClock) {
        l.clockSum += clock / haveClock;
        ++l.clockN;
    }
    if (haveUtil) {
        l.utilSum += util / haveUtil;
        ++l.utilN;
    }
    l.memMax = std::max(l.memMax, mem);
}

void scrapeOnce(const Source& src, TelemetrySampler::Level& l)
{
    if (src.metricsUrl.empty())
        return;
    HttpOptions o;
    o.connectTimeoutMs = 1000;
    o.totalTimeoutMs = 2000;
    o.maxBytes = 8u << 20;
    if (!src.apiKey.empty())
        o.headers.push_back("Authorization: Bearer " + src.apiKey);
    auto body = httpGet(src.metricsUrl, o);
    if (!body)
        return; // telemetry never fails a level
    auto state = engineState(parsePrometheusText(*body));
    std::lock_guard lock(l.mutex);
    if (state.empty() || l.givenUp)
        return;
    if (l.scrapes == 0)
        l.firstScrape = state;
    l.lastScrape = state;
    for (const char* g : gauges)
        if (auto it = state.find(g); it != state.end()) {
            l.gaugeSum[g] += it->second;
            l.gaugeMax[g] = std::max(l.gaugeMax[g], it->second);
        }
    ++l.scrapes;
}

// The thread of a level: a reading at its start, one each period on a fixed schedule (a wait for the period after
// each reading would drift by the reading's own time; the predicate keeps a spurious wake-up from reading early), the
// engine's /metrics once a second (text to parse, and gauges move slowly), and a last reading when asked to stop.
void sampleLevel(const Source& src, const std::shared_ptr<TelemetrySampler::Level>& level)
{
    TelemetrySampler::Level& l = *level;
    sampleOnce(src, l, monotonic()); // when the thread runs: under load, a while after the level began
    scrapeOnce(src, l);
    const auto period
        = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(src.interval));
    auto next = std::chrono::steady_clock::now();
    int tick = 0;
    std::unique_lock lock(l.mutex);
    while (true) {
        next += period;
        if (l.wake.wait_until(lock, next, [&] { return !l.running; }))
            break;
        lock.unlock();
        sampleOnce(src, l, monotonic());
        if (++tick * src.interval >= 1.0) {
            tick = 0;
            scrapeOnce(src, l);
        }
        // a reading slower than a period: the next one a period after it, rather than a burst catching up
        if (const auto now = std::chrono::steady_clock::now(); now > next + period)
            next = now;
        lock.lock();
    }
    lock.unlock();
    sampleOnce(src, l, monotonic());
    scrapeOnce(src, l);
    lock.lock();
    l.finished = true;
    l.done.notify_all();
}

// The level's telemetry; `until`: when it ended (its last reading; when the sampler gave up on a hanging read, then).
LevelTelemetry telemetryOf(const TelemetrySampler::Level& l, bool devices, double until)
{
    LevelTelemetry t;
    t.samples = l.samples;
    const double seconds = until - l.start;
    if (devices && seconds > 0)
        t.coverage = l.covered / seconds;
    else if (devices && !l.devices)
        t.coverage = 0; // the devices were not read at all: a read of a level before still hangs
    if (l.powerN > 0)
        t.avgPowerW = l.powerSum / l.powerN;
    bool counters_ = devices && l.devices;
    double watts = 0;
    for (std::size_t i = 0; i < l.energyFirst.size(); ++i) {
        const double span = l.energyLastAt[i] - l.energyFirstAt[i];
        if (std::isnan(l.energyFirst[i]) || std::isnan(l.energyLast[i]) || l.energyLast[i] < l.energyFirst[i]
            || span <= 0)
            counters_ = false;
        else // over the span the counter was read: a device that stopped answering part-way is not idle after it
            watts += (l.energyLast[i] - l.energyFirst[i]) / span;
    }
    if (counters_ && seconds > 0) {
        t.avgPowerW = watts; // the counter integrates what sampling could miss
        t.energyJ = watts * seconds; // without gaps, the counters' difference; with them, flagged telemetry-gaps
    } else if (t.avgPowerW && seconds > 0) {
        t.energyJ = *t.avgPowerW * seconds;
    }
    if (l.clockN > 0)
        t.avgSmClockMhz = l.clockSum / l.clockN;
    if (l.utilN > 0)
        t.avgUtilization = l.utilSum / l.utilN;
    if (devices && l.devices)
        t.maxMemoryUsedGiB = l.memMax / double(1ull << 30);
    if (l.scrapes > 0) {
        nlohmann::json j = { { "scrapes", l.scrapes } };
        for (const char* g : gauges)
            if (l.gaugeSum.count(g)) {
                j[std::string(g) + "_avg"] = l.gaugeSum.at(g) / l.scrapes;
                j[std::string(g) + "_max"] = l.gaugeMax.at(g);
            }
        for (const char* c : counters)
            if (l.firstScrape.count(c) && l.lastScrape.count(c))
                j[c] = l.lastScrape.at(c) - l.firstScrape.at(c);
        double hits = j.value("prefix_hits", 0.0);
        double queries
            = j.contains("prefix_queries") ? j["prefix_queries"].get<double>() : j.value("prompt_tokens", 0.0);
        if (queries > 0)
            j["prefix_hit_rate"] = hits / queries;
        t.engineMetricsJson = jsonText(j);
    }
    return t;
}

} // namespace

TelemetrySampler::TelemetrySampler(std::shared_ptr<GpuBackend> backend, std::vector<int> devices,
    std::string metricsUrl, std::string apiKey, double intervalSeconds)
    : m_backend(std::move(backend))
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

double TelemetrySampler::giveUpAfterSeconds() const
{
    // the last reading of every device, and the last scrape, whose request gives up after 2 s
    return 3.0 + 5 * m_interval;
}

void TelemetrySampler::begin()
{
    if (m_thread.joinable())
        end();
    std::erase_if(m_hung, [](const std::shared_ptr<Level>& l) {
        std::lock_guard lock(l->mutex);
        return l->finished;
    });
    m_level = std::make_shared<Level>();
    m_level->devices = m_hung.empty();
    m_level->energyFirst.assign(m_devices.size(), NAN);
    m_level->energyLast.assign(m_devices.size(), NAN);
    m_level->energyFirstAt.assign(m_devices.size(), 0);
    m_level->energyLastAt.assign(m_devices.size(), 0);
    m_level->start = m_level->last = monotonic();
    m_thread = std::thread(sampleLevel, Source { m_backend, m_devices, m_metricsUrl, m_apiKey, m_interval }, m_level);
}

LevelTelemetry TelemetrySampler::end()
{
    if (!m_level)
        return {};
    Level& l = *m_level;
    std::unique_lock lock(l.mutex);
    l.running = false;
    l.wake.notify_all();
    const bool finished
        = l.done.wait_for(lock, std::chrono::duration<double>(giveUpAfterSeconds()), [&] { return l.finished; });
    l.givenUp = !finished; // what the thread reads from now on is dropped
    LevelTelemetry t = telemetryOf(l, !m_devices.empty(), finished ? l.last : monotonic());
    lock.unlock();
    if (finished) {
        m_thread.join();
    } else {
        m_thread.detach(); // it holds the level and the backend until its read returns
        m_hung.push_back(m_level);
    }
    m_level.reset();
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
    std::shared_ptr<GpuBackend> backend;
    std::vector<int> indices;
    std::string names;
    for (const GpuDevice& d : discovery.devices) {
        if (d.hardware.empty() || d.hardware != config.hardware)
            continue;
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), d.index) == wanted.end())
            continue;
        std::shared_ptr<GpuBackend> b = discovery.backendFor(d);
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
